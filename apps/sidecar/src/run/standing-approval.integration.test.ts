// Standing approvals and the grant's policy, written as the attacks they stop:
// a bot changing an arg, replaying an approval on another bot or under another
// member's grant, an approval whose manifest changed, a line that is not the one
// the approval says, a budget raced by 20 parallel calls on three sidecars that
// share a real redis-server, a revoked approval, and a blocked op sent with a tap.
// Real sidecars on 127.0.0.1 and the loopback TLS stand-in for api.github.com.
import { join } from "node:path";
import { generateBotKeys, generateMemberKeys, receiptKeysFor, signRevocation, verifyReceipt, type ApprovalArgs } from "@eleven-integrations/grants";
import { startRedisServer, type TestRedisServer } from "@eleven-integrations/test-support";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../app.js";
import { approvalFor, bot, CALLER_TOKEN, confirmationFor, grantFor, member, registry, temporaryDirectory } from "../__fixtures__/grant-kit.js";
import { httpCall } from "../__fixtures__/http-call.js";
import { startProviderStandIn, type ProviderStandIn } from "../__fixtures__/provider-stand-in.js";
import { startFleet, type Fleet, type LooseAnswer } from "../__fixtures__/sidecar-fleet.js";
import { readAudit } from "../__fixtures__/test-app.js";

const ISSUE_ARGS = { owner: "octocat", repo: "hello-world", title: "Stand-up summary" };
/** Room for the stand-up issue: this repository, any title, no body. */
const STANDUP: ApprovalArgs = { owner: { eq: "octocat" }, repo: { eq: "hello-world" }, title: "any", body: "any" };
const DAILY = { runs: 3, per_seconds: 86_400 };

let provider: ProviderStandIn;
let redis: TestRedisServer;
const apps: FastifyInstance[] = [];
const fleets: Fleet[] = [];

beforeAll(async () => {
  provider = await startProviderStandIn();
  redis = await startRedisServer();
});

afterAll(async () => {
  await Promise.all(apps.map((app) => app.close()));
  await Promise.all(fleets.map((fleet) => fleet.close()));
  await provider?.close();
  await redis?.close();
});

function sent(method: string): number {
  return provider.requests.filter((request) => request.method === method).length;
}

interface Sidecar {
  home: string;
  auditFile: string;
  app: FastifyInstance;
  call(path: string, body: unknown): Promise<LooseAnswer>;
}

/** A sidecar on its own (no Redis), its journals in `home`: started again over the same home, it is the same sidecar after a restart. */
async function sidecar(home?: string): Promise<Sidecar> {
  const dir = home ?? (await temporaryDirectory("approval-"));
  const auditFile = join(dir, "audit.log");
  const app = buildApp({
    registry,
    botKeys: bot,
    trustedMembers: [member.publicKey],
    callerToken: CALLER_TOKEN,
    auditFile,
    replayFile: join(dir, "replay.log"),
    outcomeFile: join(dir, "outcomes.log"),
    revocationFile: join(dir, "revocations.log"),
    approvalFile: join(dir, "approvals.log"),
    dispatcher: provider.dispatcher,
  });
  await app.listen({ host: "127.0.0.1", port: 0 });
  apps.push(app);
  const address = app.server.address();
  const port = typeof address === "object" && address !== null ? address.port : 0;
  return {
    home: dir,
    auditFile,
    app,
    call: async (path, body) =>
      (await httpCall({ port, method: "POST", path, headers: { authorization: `Bearer ${CALLER_TOKEN}` }, body })).json() as LooseAnswer,
  };
}

describe("a write under a standing approval", () => {
  it("runs with no tap, its receipt and audit line naming the approval", async () => {
    const local = await sidecar();
    const grant = grantFor({ access: "write" });
    const approval = approvalFor({ op: "issues.create", args: STANDUP, budget: DAILY });
    const before = sent("POST");
    const answer = await local.call("/v1/run", { grant, op: "issues.create", args: ISSUE_ARGS, approval });
    expect(answer).toMatchObject({ status: "ok", http_status: 201, data: { number: 42 } });
    expect(sent("POST") - before).toBe(1);
    // Every sidecar of the bot signs with the one receipt key made from its bot key (what /v1/identity publishes).
    const receipt = verifyReceipt(answer.receipt as string, { key: receiptKeysFor(bot).publicKey });
    expect(receipt.aid).toEqual(expect.stringMatching(/^[A-Za-z0-9_-]{22}$/));
    const lines = await readAudit(local.auditFile);
    const outcome = lines.at(-1);
    expect(outcome).toMatchObject({ op: "issues.create", status: "ok", aid: receipt.aid });
    expect(lines.at(-2)).toMatchObject({ status: "started", aid: receipt.aid });
  });

  it("refuses a bot that changes a constrained arg, an arg the approval does not know, or a tap beside it, sending nothing", async () => {
    const local = await sidecar();
    const grant = grantFor({ access: "write" });
    const approval = approvalFor({ op: "issues.create", args: STANDUP, budget: DAILY });
    const before = sent("POST");
    for (const args of [
      { ...ISSUE_ARGS, repo: "secret-repo" },
      { ...ISSUE_ARGS, owner: "someone-else" },
    ]) {
      const answer = await local.call("/v1/run", { grant, op: "issues.create", args, approval });
      expect(answer).toMatchObject({
        status: "error",
        error: { code: "approval_invalid", message: expect.stringContaining("outside what the approval allows") },
      });
    }
    const both = await local.call("/v1/run", {
      grant,
      op: "issues.create",
      args: ISSUE_ARGS,
      approval,
      confirmation: confirmationFor(grant, "issues.create", ISSUE_ARGS),
    });
    expect(both).toMatchObject({ status: "error", error: { code: "approval_invalid" } });
    const onRead = await local.call("/v1/run", { grant, op: "repos.list", approval });
    expect(onRead).toMatchObject({ status: "error", error: { code: "approval_invalid" } });
    expect(sent("POST") - before).toBe(0);
  });

  it("refuses an approval sealed to another bot, signed by another member than the grant's, or for another op", async () => {
    const local = await sidecar();
    const grant = grantFor({ access: "write" });
    const otherBot = generateBotKeys();
    const stranger = generateMemberKeys();
    const cases = [
      { approval: approvalFor({ op: "issues.create", args: STANDUP, budget: DAILY, botPublicKey: otherBot.publicKey }), why: "not_for_this_bot" },
      { approval: approvalFor({ op: "issues.create", args: STANDUP, budget: DAILY, issuer: stranger }), why: "untrusted_member" },
      {
        approval: approvalFor({ op: "issues.comment", args: { owner: "any", repo: "any", issue_number: "any", body: "any" }, budget: DAILY }),
        why: "not this op",
      },
    ];
    const before = sent("POST");
    for (const { approval, why } of cases) {
      const answer = await local.call("/v1/run", { grant, op: "issues.create", args: ISSUE_ARGS, approval });
      expect(answer, why).toMatchObject({ status: "error", error: { code: "approval_invalid", message: expect.stringContaining(why) } });
    }
    expect(sent("POST") - before).toBe(0);
  });

  it("refuses an approval whose manifest changed, one that leaves an arg without a constraint, and one signed over another line (bidi)", async () => {
    const local = await sidecar();
    const grant = grantFor({ access: "write" });
    const changed = approvalFor({ op: "issues.create", args: STANDUP, budget: DAILY, manifestHash: "0".repeat(64) });
    const expectRefusal = async (approval: string, message: string) => {
      const answer = await local.call("/v1/run", { grant, op: "issues.create", args: ISSUE_ARGS, approval });
      expect(answer).toMatchObject({ status: "error", error: { code: "approval_invalid", message: expect.stringContaining(message) } });
    };
    await expectRefusal(changed, "manifest changed");
    // The member's client rendered the line itself and left the body out: the sidecar knows the manifest.
    const partialArgs = { owner: { eq: "octocat" }, repo: { eq: "hello-world" }, title: "any" } as ApprovalArgs;
    const partial = approvalFor({ op: "issues.create", args: partialArgs, budget: DAILY, line: "Always allow: open issues" });
    await expectRefusal(partial, "without a constraint");
    // A line with a right-to-left override that reads as another repository: not the line this approval says.
    const bidi = approvalFor({ op: "issues.create", args: STANDUP, budget: DAILY, line: "Always allow: open issues in \u202Eoper-terces\u202C only" });
    await expectRefusal(bidi, "not the line this approval says");
  });

  it("spends its budget and then answers approval_exhausted with retry_after_s, also after a restart", async () => {
    const local = await sidecar();
    const grant = grantFor({ access: "write" });
    const approval = approvalFor({ op: "issues.create", args: STANDUP, budget: { runs: 2, per_seconds: 3600 } });
    const run = (on: Sidecar) => on.call("/v1/run", { grant, op: "issues.create", args: ISSUE_ARGS, approval });
    expect(await run(local)).toMatchObject({ status: "ok" });
    await local.app.close();
    const restarted = await sidecar(local.home);
    expect(await run(restarted)).toMatchObject({ status: "ok" });
    const before = sent("POST");
    const spent = await run(restarted);
    expect(spent).toMatchObject({ status: "error", error: { code: "approval_exhausted" } });
    expect(spent.error.retry_after_s).toBeGreaterThan(3500);
    await restarted.app.close();
    const again = await sidecar(local.home);
    expect(await run(again)).toMatchObject({ status: "error", error: { code: "approval_exhausted" } });
    expect(sent("POST") - before).toBe(0);
  });

  it("a budget summed over a numeric arg refuses the run that would go over it", async () => {
    const local = await sidecar();
    const grant = grantFor({ access: "write" });
    const args = { owner: "octocat", repo: "hello-world", issue_number: "7", reason: "completed" };
    const closing = approvalFor({
      op: "issues.close",
      args: { owner: { eq: "octocat" }, repo: { eq: "hello-world" }, issue_number: { min: 1, max: 100 }, reason: { in: ["completed", "not_planned"] } },
      budget: { runs: 10, per_seconds: 3600, sum: { arg: "issue_number", max: 10 } },
    });
    expect(await local.call("/v1/run", { grant, op: "issues.close", args, approval: closing })).toMatchObject({ status: "ok" });
    const over = await local.call("/v1/run", { grant, op: "issues.close", args: { ...args, issue_number: "4" }, approval: closing });
    expect(over).toMatchObject({ status: "error", error: { code: "approval_exhausted" } });
    expect(await local.call("/v1/run", { grant, op: "issues.close", args: { ...args, issue_number: "3" }, approval: closing })).toMatchObject({ status: "ok" });
  });

  it("a write with a preview reads it first and writes the preview line in the audit line; a failed preview read writes nothing", async () => {
    const local = await sidecar();
    const grant = grantFor({ access: "write" });
    const closing = approvalFor({
      op: "issues.close",
      args: { owner: { eq: "octocat" }, repo: { eq: "hello-world" }, issue_number: "any", reason: "any" },
      budget: DAILY,
    });
    const args = { owner: "octocat", repo: "hello-world", issue_number: "1347", reason: "completed" };
    const closed = await local.call("/v1/run", { grant, op: "issues.close", args, approval: closing });
    expect(closed, JSON.stringify(closed)).toMatchObject({ status: "ok" });
    expect((await readAudit(local.auditFile)).at(-1)).toMatchObject({
      op: "issues.close",
      status: "ok",
      preview: expect.stringContaining("comments, opened by"),
    });
    const patches = sent("PATCH");
    const missing = await local.call("/v1/run", { grant, op: "issues.close", args: { ...args, issue_number: "404" }, approval: closing });
    expect(missing).toMatchObject({ status: "error", error: { code: "not_found" } });
    expect(sent("PATCH") - patches).toBe(0);
    const review = await local.call("/v1/policy", { grant, approvals: [closing] });
    // The failed preview spent nothing: one run of three is gone.
    expect(review.ops).toContainEqual(expect.objectContaining({ id: "issues.close", approval: expect.objectContaining({ runs_left: 2 }) }));
  });

  it("a revoked approval runs no more, on this sidecar and after a restart", async () => {
    const local = await sidecar();
    const grant = grantFor({ access: "write" });
    const approval = approvalFor({ op: "issues.create", args: STANDUP, budget: DAILY });
    const revoked = await local.call("/v1/revoke", { revocation: signRevocation({ member, grant: approval }) });
    expect(revoked).toMatchObject({ status: "ok", integration: "github", member: member.publicKey });
    expect(revoked.aid).toEqual(expect.any(String));
    expect(revoked.gid).toBeUndefined();
    expect((await readAudit(local.auditFile)).at(-1)).toMatchObject({ status: "revoked", gid: null, aid: revoked.aid });
    const before = sent("POST");
    const refused = await local.call("/v1/run", { grant, op: "issues.create", args: ISSUE_ARGS, approval });
    expect(refused).toMatchObject({ status: "error", error: { code: "approval_invalid", message: expect.stringContaining("revoked") } });
    await local.app.close();
    const restarted = await sidecar(local.home);
    expect(await restarted.call("/v1/run", { grant, op: "issues.create", args: ISSUE_ARGS, approval })).toMatchObject({
      error: { code: "approval_invalid" },
    });
    expect(sent("POST") - before).toBe(0);
  });

  it("an event-bound approval does not run a write that names no event this sidecar delivered", async () => {
    const local = await sidecar();
    const grant = grantFor({ access: "write" });
    const approval = approvalFor({ op: "issues.create", args: STANDUP, budget: DAILY, event: "issues.closed" });
    const before = sent("POST");
    const answer = await local.call("/v1/run", { grant, op: "issues.create", args: ISSUE_ARGS, approval, event_id: "evt_made_up" });
    expect(answer).toMatchObject({ status: "error", error: { code: "approval_invalid", message: expect.stringContaining("issues.closed") } });
    expect(sent("POST") - before).toBe(0);
  });
});

describe("a budget raced across sidecars sharing Redis", () => {
  it("20 parallel calls on three sidecars run exactly the budget's 5, the rest approval_exhausted", async () => {
    const fleet = await startFleet({
      count: 3,
      dispatcher: provider.dispatcher,
      redisUrl: redis.url,
      rateLimits: { perGrant: { points: 1000, durationSeconds: 60 } },
    });
    fleets.push(fleet);
    const grant = fleet.grant({ access: "write" });
    const approval = approvalFor({ op: "issues.create", args: STANDUP, budget: { runs: 5, per_seconds: 3600 }, botPublicKey: fleet.bot.publicKey });
    const before = sent("POST");
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        (fleet.sidecars[index % 3] as (typeof fleet.sidecars)[number]).call("/v1/run", { grant, op: "issues.create", args: ISSUE_ARGS, approval }),
      ),
    );
    const ok = answers.filter((answer) => answer.body.status === "ok");
    const exhausted = answers.filter((answer) => answer.body.error?.code === "approval_exhausted");
    expect(ok).toHaveLength(5);
    expect(exhausted).toHaveLength(15);
    expect(sent("POST") - before).toBe(5);
    const review = await (fleet.sidecars[1] as (typeof fleet.sidecars)[number]).call("/v1/policy", { grant, approvals: [approval] });
    expect(review.body.ops).toContainEqual(
      expect.objectContaining({ id: "issues.create", decision: "ask", approval: expect.objectContaining({ runs_left: 0 }) }),
    );
  });
});

describe("the grant's policy", () => {
  it("a blocked op is refused with blocked_by_policy before anything is sent, even with a tap or an approval, and is absent from /v1/ops", async () => {
    const local = await sidecar();
    const grant = grantFor({ access: "write", policy: { destructive: "block", ops: { "issues.create": "block" } } });
    const before = provider.requests.length;
    const tapped = await local.call("/v1/run", {
      grant,
      op: "issues.create",
      args: ISSUE_ARGS,
      confirmation: confirmationFor(grant, "issues.create", ISSUE_ARGS),
    });
    expect(tapped).toMatchObject({ status: "error", error: { code: "blocked_by_policy" } });
    const approved = await local.call("/v1/run", {
      grant,
      op: "issues.create",
      args: ISSUE_ARGS,
      approval: approvalFor({ op: "issues.create", args: STANDUP, budget: DAILY }),
    });
    expect(approved).toMatchObject({ status: "error", error: { code: "blocked_by_policy" } });
    const closing = await local.call("/v1/run", { grant, op: "issues.close", args: { owner: "octocat", repo: "hello-world", issue_number: "1" } });
    expect(closing).toMatchObject({ status: "error", error: { code: "blocked_by_policy" } });
    expect(provider.requests.length - before).toBe(0);
    const palette = await local.call("/v1/ops", { grant });
    const ids = (palette.ops as { id: string }[]).map((op) => op.id);
    expect(ids).toContain("issues.comment");
    expect(ids).not.toContain("issues.create");
    expect(ids).not.toContain("issues.close");
    const review = await local.call("/v1/policy", { grant });
    expect(review.ops).toEqual(
      expect.arrayContaining([
        { id: "issues.create", access: "write", decision: "block" },
        { id: "issues.close", access: "write", decision: "block" },
        { id: "issues.comment", access: "write", decision: "ask" },
        { id: "repos.list", access: "read", decision: "allow" },
      ]),
    );
  });

  it("a read the policy says to ask about answers its chip and runs only with the member's tap", async () => {
    const local = await sidecar();
    const grant = grantFor({ access: "read", policy: { read: "ask" } });
    const before = provider.requests.length;
    const chip = await local.call("/v1/run", { grant, op: "repos.list" });
    expect(chip).toMatchObject({ status: "confirmation_required", op: "repos.list", confirm: expect.any(String) });
    expect(provider.requests.length - before).toBe(0);
    const tap = confirmationFor(grant, "repos.list", {}, chip.confirm as string);
    expect(await local.call("/v1/run", { grant, op: "repos.list", confirmation: tap })).toMatchObject({ status: "ok" });
  });

  it("allow on a write still asks: a write never runs without the member's signature", async () => {
    const local = await sidecar();
    const grant = grantFor({ access: "write", policy: { write: "allow" } });
    const before = sent("POST");
    expect(await local.call("/v1/run", { grant, op: "issues.create", args: ISSUE_ARGS })).toMatchObject({ status: "confirmation_required" });
    expect(sent("POST") - before).toBe(0);
  });
});
