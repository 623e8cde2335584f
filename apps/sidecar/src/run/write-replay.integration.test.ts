// The same confirmed write sent again answers its stored outcome (receipt included,
// `replayed: true`) and sends nothing: through one sidecar's journal (across a
// restart) and through Redis (on another sidecar of the bot). A write whose
// connection closes after the request arrived is `outcome_unknown`, stored and
// replayed as such. Real sidecars on 127.0.0.1, a real redis-server, and the
// loopback TLS stand-in for api.github.com (provider-stand-in.ts names the GitHub pages it copies).
import { join } from "node:path";
import { createLoopbackDispatcher } from "@eleven-integrations/test-support";
import { signConfirmation, verifyReceipt } from "@eleven-integrations/grants";
import { startRedisServer, type TestRedisServer } from "@eleven-integrations/test-support";
import type { FastifyInstance } from "fastify";
import type { Dispatcher } from "undici";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../app.js";
import { bot, CALLER_TOKEN, grantFor, lineFor, member, opened, registry, temporaryDirectory } from "../__fixtures__/grant-kit.js";
import { httpCall } from "../__fixtures__/http-call.js";
import { startProviderStandIn, type ProviderStandIn } from "../__fixtures__/provider-stand-in.js";
import { startFleet, type Fleet, type LooseAnswer } from "../__fixtures__/sidecar-fleet.js";
import { IN_PROGRESS_NEXT_ACTION } from "../call/stored-outcome.js";

const ISSUE_ARGS = { owner: "octocat", repo: "hello-world", title: "Crash on start" };
const OTHER_ARGS = { ...ISSUE_ARGS, title: "Something else" };

let provider: ProviderStandIn;
let redis: TestRedisServer;
const fleets: Fleet[] = [];

beforeAll(async () => {
  provider = await startProviderStandIn();
  redis = await startRedisServer();
});

afterAll(async () => {
  await Promise.all(fleets.map((fleet) => fleet.close()));
  await provider?.close();
  await redis?.close();
});

function writesSent(): number {
  return provider.requests.filter((request) => request.method === "POST").length;
}

/** One sidecar without Redis, its journals in `home`; started again over the same home it is the same sidecar after a restart. */
async function localSidecar(
  home: string,
  dispatcher: Dispatcher = provider.dispatcher,
): Promise<{ app: FastifyInstance; call(body: unknown): Promise<LooseAnswer> }> {
  const app = buildApp({
    registry,
    botKeys: bot,
    trustedMembers: [member.publicKey],
    callerToken: CALLER_TOKEN,
    auditFile: join(home, "audit.log"),
    replayFile: join(home, "replay.log"),
    outcomeFile: join(home, "outcomes.log"),
    dispatcher,
  });
  await app.listen({ host: "127.0.0.1", port: 0 });
  const address = app.server.address();
  const port = typeof address === "object" && address !== null ? address.port : 0;
  return {
    app,
    call: async (body) =>
      (await httpCall({ port, method: "POST", path: "/v1/run", headers: { authorization: `Bearer ${CALLER_TOKEN}` }, body })).json() as LooseAnswer,
  };
}

function confirmed(args: Record<string, string>) {
  const grant = grantFor({ access: "write" });
  const confirmation = signConfirmation({ member, grant: opened(grant), op: "issues.create", args, line: lineFor("issues.create", args) });
  return { grant, confirmation };
}

describe("the same confirmed write sent again, one sidecar with its journal", () => {
  it("answers the stored envelope with replayed: true and the same receipt, before and after a restart, sending one request", async () => {
    const home = await temporaryDirectory("replay-");
    const { grant, confirmation } = confirmed(ISSUE_ARGS);
    const body = { grant, op: "issues.create", args: ISSUE_ARGS, confirmation };
    const before = writesSent();
    let sidecar = await localSidecar(home);
    const first = await sidecar.call(body);
    expect(first).toMatchObject({ status: "ok", http_status: 201, data: { number: 42 } });
    expect(first.receipt).toEqual(expect.stringMatching(/^ew1\./));
    expect(first.replayed).toBeUndefined();

    const again = await sidecar.call(body);
    expect(again).toEqual({ ...first, replayed: true });

    await sidecar.app.close();
    sidecar = await localSidecar(home);
    try {
      expect(await sidecar.call(body)).toEqual({ ...first, replayed: true });
      // Other args under that confirmation: the confirmation does not cover them.
      const other = await sidecar.call({ ...body, args: OTHER_ARGS });
      expect(other).toMatchObject({ status: "error", error: { code: "confirmation_invalid" } });
      expect(other.replayed).toBeUndefined();
    } finally {
      await sidecar.app.close();
    }
    expect(writesSent() - before).toBe(1);
  });

  it("a write whose connection closes after the request arrived is outcome_unknown with a receipt, and replays as such", async () => {
    const home = await temporaryDirectory("replay-");
    const { grant, confirmation } = confirmed({ ...ISSUE_ARGS, title: "Lost answer" });
    const body = { grant, op: "issues.create", args: { ...ISSUE_ARGS, title: "Lost answer" }, confirmation };
    const sidecar = await localSidecar(home);
    const before = writesSent();
    provider.setHangUpOnWrite(true);
    try {
      const first = await sidecar.call(body);
      expect(first).toMatchObject({
        status: "error",
        error: { code: "outcome_unknown", next_action: expect.stringMatching(/^check the provider before trying again/) },
      });
      expect(first.receipt).toEqual(expect.stringMatching(/^ew1\./));
      expect(writesSent() - before).toBe(1);
      provider.setHangUpOnWrite(false);
      expect(await sidecar.call(body)).toEqual({ ...first, replayed: true });
      expect(writesSent() - before).toBe(1);
    } finally {
      provider.setHangUpOnWrite(false);
      await sidecar.app.close();
    }
  });

  it("a refused connection sent nothing: network_error, no receipt, and the same call again is the plain replay refusal", async () => {
    const home = await temporaryDirectory("replay-");
    const refusing = createLoopbackDispatcher("unused", new Map());
    const sidecar = await localSidecar(home, refusing);
    const { grant, confirmation } = confirmed(ISSUE_ARGS);
    const body = { grant, op: "issues.create", args: ISSUE_ARGS, confirmation };
    try {
      const first = await sidecar.call(body);
      expect(first).toMatchObject({ status: "error", error: { code: "network_error" } });
      expect(first.receipt).toBeUndefined();
      const again = await sidecar.call(body);
      expect(again).toMatchObject({ status: "error", error: { code: "confirmation_invalid", next_action: expect.stringMatching(/confirm again/) } });
      expect(again.replayed).toBeUndefined();
    } finally {
      await sidecar.app.close();
      await refusing.destroy();
    }
  });
});

describe("the same confirmed write sent again, sidecars sharing Redis", () => {
  it("another sidecar of the bot answers the stored envelope, receipt included; other args stay confirmation_invalid", async () => {
    const fleet = await startFleet({ count: 3, dispatcher: provider.dispatcher, redisUrl: redis.url });
    fleets.push(fleet);
    const grant = fleet.grant({ access: "write" });
    const confirmation = fleet.confirmation(grant, "issues.create", ISSUE_ARGS);
    const body = { grant, op: "issues.create", args: ISSUE_ARGS, confirmation };
    const before = writesSent();
    const first = (await fleet.sidecars[0]!.call("/v1/run", body)).body;
    expect(first).toMatchObject({ status: "ok", http_status: 201 });
    expect(first.receipt).toEqual(expect.stringMatching(/^ew1\./));
    for (const sidecar of fleet.sidecars.slice(1)) {
      expect((await sidecar.call("/v1/run", body)).body).toEqual({ ...first, replayed: true });
      // One receipt key per bot (third review, finding 6): each sidecar's /v1/identity verifies the receipt another signed.
      const { receipt_key } = (await sidecar.call("/v1/identity")).body as unknown as { receipt_key: string };
      expect(verifyReceipt(first.receipt as string, { key: receipt_key })).toMatchObject({ op: "issues.create", iss: member.publicKey });
    }
    const other = (await fleet.sidecars[2]!.call("/v1/run", { ...body, args: OTHER_ARGS })).body;
    expect(other).toMatchObject({ status: "error", error: { code: "confirmation_invalid" } });
    expect(writesSent() - before).toBe(1);
  });

  it("outcome_unknown is stored in Redis and replays on another sidecar; the same call during the write answers in progress", async () => {
    const fleet = await startFleet({ count: 2, dispatcher: provider.dispatcher, redisUrl: redis.url });
    fleets.push(fleet);
    const grant = fleet.grant({ access: "write" });
    const args = { ...ISSUE_ARGS, title: "Lost in Redis" };
    const confirmation = fleet.confirmation(grant, "issues.create", args);
    const body = { grant, op: "issues.create", args, confirmation };
    const before = writesSent();
    provider.setHangUpOnWrite(true);
    try {
      const first = (await fleet.sidecars[0]!.call("/v1/run", body)).body;
      expect(first).toMatchObject({ status: "error", error: { code: "outcome_unknown" } });
      expect(first.receipt).toEqual(expect.stringMatching(/^ew1\./));
      expect((await fleet.sidecars[1]!.call("/v1/run", body)).body).toEqual({ ...first, replayed: true });
      expect(writesSent() - before).toBe(1);
    } finally {
      provider.setHangUpOnWrite(false);
    }
  });
});

describe("the same call while its write is still running", () => {
  it("answers confirmation_invalid with the in-progress next action, never a second write, then the outcome once stored", async () => {
    const fleet = await startFleet({ count: 2, dispatcher: provider.dispatcher, redisUrl: redis.url });
    fleets.push(fleet);
    const grant = fleet.grant({ access: "write" });
    const args = { ...ISSUE_ARGS, title: "Slow write" };
    const confirmation = fleet.confirmation(grant, "issues.create", args);
    const body = { grant, op: "issues.create", args, confirmation };
    const before = writesSent();
    provider.setWriteDelay(1500);
    try {
      const running = fleet.sidecars[0]!.call("/v1/run", body);
      while (writesSent() === before) await new Promise((resolve) => setTimeout(resolve, 10));
      const during = (await fleet.sidecars[1]!.call("/v1/run", body)).body;
      expect(during).toMatchObject({ status: "error", error: { code: "confirmation_invalid", next_action: IN_PROGRESS_NEXT_ACTION } });
      const first = (await running).body;
      expect(first).toMatchObject({ status: "ok", http_status: 201 });
      expect((await fleet.sidecars[1]!.call("/v1/run", body)).body).toEqual({ ...first, replayed: true });
      expect(writesSent() - before).toBe(1);
    } finally {
      provider.setWriteDelay(0);
    }
  });
});

/** A chip for closing issue `number`, and the member's tap on it (its line: the confirm line and the preview). */
async function previewedTap(fleet: Fleet, grant: string, number: string, now?: number) {
  const args = { owner: "octocat", repo: "hello-world", issue_number: number, reason: "completed" };
  const chip = (await fleet.sidecars[0]!.call("/v1/run", { grant, op: "issues.close", args })).body;
  expect(chip).toMatchObject({ status: "confirmation_required", preview: "“Found a bug”, open, 0 comments, opened by octocat" });
  const line = `${chip.confirm as string}\n${chip.preview as string}`;
  const confirmation = signConfirmation({ member, grant: opened(grant, fleet.bot), op: "issues.close", args, line, ...(now === undefined ? {} : { now }) });
  return { grant, op: "issues.close", args, confirmation };
}

function patchesSent(): number {
  return provider.requests.filter((request) => request.method === "PATCH").length;
}

describe("a write with a preview, the same tap sent again while it runs (third review, finding 10)", () => {
  it("answers in progress, never target_changed with a new chip: tapping that would write twice", async () => {
    const fleet = await startFleet({ count: 2, dispatcher: provider.dispatcher, redisUrl: redis.url });
    fleets.push(fleet);
    const body = await previewedTap(fleet, fleet.grant({ access: "write" }), "7001");
    const before = patchesSent();
    provider.setWriteDelay(1500);
    try {
      const running = fleet.sidecars[0]!.call("/v1/run", body);
      while (patchesSent() === before) await new Promise((resolve) => setTimeout(resolve, 10));
      // The provider already closed the issue (its answer is slow): a fresh preview read would show "closed".
      const during = (await fleet.sidecars[1]!.call("/v1/run", body)).body;
      expect(during).toMatchObject({ status: "error", error: { code: "confirmation_invalid", next_action: IN_PROGRESS_NEXT_ACTION } });
      expect(during.preview).toBeUndefined();
      const first = (await running).body;
      expect(first).toMatchObject({ status: "ok", data: { state: "closed" } });
      expect((await fleet.sidecars[1]!.call("/v1/run", body)).body).toEqual({ ...first, replayed: true });
      expect(patchesSent() - before).toBe(1);
    } finally {
      provider.setWriteDelay(0);
    }
  });
});

describe("the stored outcome answers for the confirmation's life plus ten minutes (third review, finding 4)", () => {
  // Signed so that it is accepted (with the 60 s of skew) for two more seconds.
  const nearlyExpired = () => Math.floor(Date.now() / 1000) - 300 - 58;
  const pastExpiry = () => new Promise((resolve) => setTimeout(resolve, 2600));

  it("a plain write: the same call after the confirmation expired is its stored outcome, not confirmation_invalid", async () => {
    const fleet = await startFleet({ count: 2, dispatcher: provider.dispatcher, redisUrl: redis.url });
    fleets.push(fleet);
    const grant = fleet.grant({ access: "write" });
    const args = { ...ISSUE_ARGS, title: "Answered late" };
    const body = { grant, op: "issues.create", args, confirmation: fleet.confirmation(grant, "issues.create", args, nearlyExpired()) };
    const before = writesSent();
    const first = (await fleet.sidecars[0]!.call("/v1/run", body)).body;
    expect(first).toMatchObject({ status: "ok", http_status: 201 });
    await pastExpiry();
    expect((await fleet.sidecars[1]!.call("/v1/run", body)).body).toEqual({ ...first, replayed: true });
    // Other args under that expired confirmation: still refused, nothing sent.
    expect((await fleet.sidecars[1]!.call("/v1/run", { ...body, args: OTHER_ARGS })).body).toMatchObject({ error: { code: "confirmation_invalid" } });
    expect(writesSent() - before).toBe(1);
  });

  it("a write with a preview: the same call after expiry is its stored outcome, the preview not read again", async () => {
    const fleet = await startFleet({ count: 1, dispatcher: provider.dispatcher, redisUrl: redis.url });
    fleets.push(fleet);
    const body = await previewedTap(fleet, fleet.grant({ access: "write" }), "7002", nearlyExpired());
    const before = patchesSent();
    const first = (await fleet.sidecars[0]!.call("/v1/run", body)).body;
    expect(first).toMatchObject({ status: "ok", data: { state: "closed" } });
    await pastExpiry();
    const reads = provider.requests.length;
    expect((await fleet.sidecars[0]!.call("/v1/run", body)).body).toEqual({ ...first, replayed: true });
    expect(provider.requests.length).toBe(reads);
    expect(patchesSent() - before).toBe(1);
  });

  it("an expired confirmation that never ran is still confirmation_invalid (expired)", async () => {
    const fleet = await startFleet({ count: 1, dispatcher: provider.dispatcher, redisUrl: redis.url });
    fleets.push(fleet);
    const grant = fleet.grant({ access: "write" });
    const confirmation = fleet.confirmation(grant, "issues.create", ISSUE_ARGS, Math.floor(Date.now() / 1000) - 400);
    const answer = (await fleet.sidecars[0]!.call("/v1/run", { grant, op: "issues.create", args: ISSUE_ARGS, confirmation })).body;
    expect(answer).toMatchObject({ status: "error", error: { code: "confirmation_invalid", message: expect.stringContaining("expired") } });
  });
});

describe("after Redis lost its data (third review, finding 12)", () => {
  it("a tap signed before the loss is told to tap again, never that its write is still running", async () => {
    const lost = await startRedisServer();
    const fleet = await startFleet({ count: 1, dispatcher: provider.dispatcher, redisUrl: lost.url });
    try {
      const grant = fleet.grant({ access: "write" });
      expect((await fleet.sidecars[0]!.call("/v1/run", { grant, op: "repos.list" })).body.status).toBe("ok");
      const args = { ...ISSUE_ARGS, title: "Signed before the loss" };
      const confirmation = fleet.confirmation(grant, "issues.create", args);
      const client = new Redis(lost.url);
      await client.flushall();
      client.disconnect();
      const before = writesSent();
      const answer = (await fleet.sidecars[0]!.call("/v1/run", { grant, op: "issues.create", args, confirmation })).body;
      expect(answer).toMatchObject({ status: "error", error: { code: "confirmation_invalid", next_action: expect.stringMatching(/confirm again/) } });
      expect(answer.error?.next_action).not.toBe(IN_PROGRESS_NEXT_ACTION);
      expect(writesSent()).toBe(before);
    } finally {
      await fleet.close();
      await lost.close();
    }
  });
});
