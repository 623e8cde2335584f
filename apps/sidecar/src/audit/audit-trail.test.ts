import { readFile, stat } from "node:fs/promises";
import { argsDigest, keyedArgsDigest, openApproval } from "@eleven-integrations/grants";
import Fastify from "fastify";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { buildApp } from "../app.js";
import type { AuditRecord, AuditSink } from "./audit-log.js";
import { createGrantOpener } from "../run/grant-opener.js";
import { LiveRegistry } from "../registry/live-registry.js";
import { LocalState } from "../state/local-state.js";
import { sidecarContextPlugin } from "../http/context.js";
import { runPlugin } from "../http/run-plugin.js";
import { AUDIT_KEY, RECEIPT_KEYS, bot, confirmationFor, grantFor, member, MEMBER_TOKEN, opened, registry } from "../__fixtures__/grant-kit.js";
import { leakedSecrets } from "../__fixtures__/log-capture.js";
import { authorized, mockProvider, testApp, type MockProvider, type TestApp } from "../__fixtures__/test-app.js";
import { Readiness } from "../metrics/readiness.js";

const ISSUE_ARGS = { owner: "octocat", repo: "hello-world", title: "A title nobody may log" };
const AUDIT_KEYS = [
  "time",
  "audit_id",
  "gid",
  "member",
  "integration",
  "op",
  "access",
  "args_digest",
  "account",
  "status",
  "code",
  "http_status",
  "duration_ms",
  "prev",
];

let provider: MockProvider;
let harness: TestApp;

beforeEach(async () => {
  provider = mockProvider();
  harness = await testApp({ dispatcher: provider.dispatcher });
  await harness.app.ready();
});

afterEach(async () => {
  await harness.app.close();
  await provider.agent.close();
});

const run = (payload: Record<string, unknown>) => harness.app.inject({ method: "POST", url: "/v1/run", headers: authorized, payload });

describe("the audit trail of /v1/run", () => {
  it("is a 0600 file from the moment the app is ready", async () => {
    expect((await stat(harness.auditFile)).mode & 0o777).toBe(0o600);
  });

  it("records a run with every field, and nothing else", async () => {
    provider.agent.get("https://api.github.com").intercept({ path: "/user/repos?sort=created&per_page=30", method: "GET" }).reply(200, []);
    const grant = grantFor();
    await run({ grant, op: "repos.list", args: { sort: "created" } });
    const [line] = await harness.auditRecords();
    expect(Object.keys(line ?? {})).toEqual(AUDIT_KEYS);
    expect(line).toMatchObject({
      gid: opened(grant).gid,
      member: member.publicKey,
      integration: "github",
      op: "repos.list",
      access: "read",
      args_digest: keyedArgsDigest({ sort: "created" }, AUDIT_KEY),
      status: "ok",
      code: null,
      http_status: 200,
    });
    expect(Number.isNaN(Date.parse(line?.time ?? ""))).toBe(false);
    expect(line?.audit_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(line?.duration_ms).toBeGreaterThanOrEqual(0);
  });

  it("keys args_digest so a reader of the file cannot guess the args back (review finding 13)", async () => {
    // The attack: a realistic write's args come from a small space (owners, repos, a title
    // template); whoever reads the audit file digests each guess and compares.
    const secretArgs = { owner: "acme", repo: "payroll", title: "Raise for employee 1234" };
    const grant = grantFor({ access: "write" });
    await run({ grant, op: "issues.create", args: secretArgs });
    const [line] = await harness.auditRecords();
    const guesses: Record<string, string>[] = [];
    for (const owner of ["acme", "octocat", "github"])
      for (const repo of ["payroll", "hello-world", "website", "api", "docs", "infra"])
        for (let employee = 1200; employee < 1300; employee += 1) guesses.push({ owner, repo, title: `Raise for employee ${employee}` });
    expect(guesses).toHaveLength(1800);
    expect(guesses.filter((guess) => argsDigest(guess) === line?.args_digest)).toEqual([]);
    // Only with the sidecar's key does the right guess match.
    expect(guesses.filter((guess) => keyedArgsDigest(guess, AUDIT_KEY) === line?.args_digest)).toEqual([secretArgs]);
  });

  it("records refusals, confirmation_required and invalid bodies: one line per call that reached the handler", async () => {
    const writeGrant = grantFor({ access: "write" });
    await run({ grant: "eg1.garbage", op: "repos.list" });
    await run({ grant: grantFor(), op: "issues.create", args: ISSUE_ARGS });
    await run({ grant: writeGrant, op: "issues.create", args: ISSUE_ARGS });
    await run({ grant: writeGrant, op: "repos.list", args: { sort: "sideways" } });
    await run({ grant: writeGrant, op: "issues.create", args: ISSUE_ARGS, confirmation: "ec1.AAAA" });
    await run({ grant: writeGrant, op: "repos.list", surprise: "x" });
    const records = await harness.auditRecords();
    expect(records.map((record) => [record.status, record.code, record.access])).toEqual([
      ["error", "grant_invalid", null],
      ["error", "access_denied", "write"],
      ["confirmation_required", null, "write"],
      ["error", "invalid_args", "read"],
      ["error", "confirmation_invalid", "write"],
      ["error", "invalid_body", null],
    ]);
    expect(records[0]).toMatchObject({ gid: null, member: null, integration: null, op: "repos.list", http_status: null });
    expect(records[2]).toMatchObject({ gid: opened(writeGrant).gid, integration: "github", args_digest: keyedArgsDigest(ISSUE_ARGS, AUDIT_KEY) });
    expect(records[5]).toMatchObject({ op: "repos.list", gid: null, args_digest: null });
    for (const record of records) expect(Object.keys(record)).toEqual(AUDIT_KEYS);
  });

  it("records the provider's status of a failed run", async () => {
    provider.agent.get("https://api.github.com").intercept({ path: "/user/repos?per_page=30", method: "GET" }).reply(404, { message: "Not Found" });
    await run({ grant: grantFor(), op: "repos.list" });
    const [line] = await harness.auditRecords();
    expect(line).toMatchObject({ status: "error", code: "not_found", http_status: 404 });
  });

  it("holds no token, argument value or response body, and neither does the log", async () => {
    provider.agent
      .get("https://api.github.com")
      .intercept({ path: "/repos/octocat/hello-world/issues", method: "POST" })
      .reply(201, { number: 7, title: ISSUE_ARGS.title, state: "open", html_url: "https://github.com/x/y/issues/7-response-body-marker" });
    const grant = grantFor({ access: "write" });
    await run({ grant, op: "issues.create", args: ISSUE_ARGS });
    await run({ grant, op: "issues.create", args: ISSUE_ARGS, confirmation: confirmationFor(grant, "issues.create", ISSUE_ARGS) });
    const audit = await readFile(harness.auditFile, "utf8");
    const secrets = [MEMBER_TOKEN, grant, ISSUE_ARGS.title, "hello-world", "response-body-marker", authorized.authorization.slice(7)];
    expect(leakedSecrets([audit, ...harness.logs.lines], secrets)).toEqual([]);
    expect(harness.logs.lines.length).toBeGreaterThan(0);
  });
});

function bareApp(audit: AuditSink) {
  const app = Fastify();
  const context = {
    live: new LiveRegistry(registry, { hash: registry.hash, sequence: 0, source: "embedded" as const, synced_at: null }, { dispatcher: provider.dispatcher }),
    publicKey: bot.publicKey,
    openGrant: createGrantOpener({ botKeys: bot, trustedMembers: [member.publicKey] }),
    openApproval: (sealed: string) => openApproval(sealed, { bot, trustedMembers: [member.publicKey] }),
    state: new LocalState(),
    botKeys: bot,
    trustedMembers: [member.publicKey],
    audit,
    auditKey: AUDIT_KEY,
    inFlight: new Set<Promise<unknown>>(),
    receiptKeys: () => RECEIPT_KEYS,
    readiness: new Readiness(),
  };
  void app.register(sidecarContextPlugin, { context });
  void app.register(runPlugin);
  return app;
}

describe("a write's audit lines", () => {
  it("are a flushed started line before the request goes out, and the flushed outcome after", async () => {
    const events: string[] = [];
    provider.agent
      .get("https://api.github.com")
      .intercept({ path: "/repos/octocat/hello-world/issues", method: "POST" })
      .reply(() => {
        events.push("sent");
        return { statusCode: 201, data: { number: 1, title: "t", state: "open", html_url: "https://github.com/x", id: 1 } };
      });
    const app = bareApp({
      append: async (record, options) => {
        events.push(`${record.status}${options?.durable === true ? " (flushed)" : ""}`);
        ids.push(record.audit_id);
      },
    });
    const ids: string[] = [];
    const grant = grantFor({ access: "write" });
    await app.inject({ method: "POST", url: "/v1/run", payload: { grant, op: "issues.create", args: ISSUE_ARGS } });
    const response = await app.inject({
      method: "POST",
      url: "/v1/run",
      payload: { grant, op: "issues.create", args: ISSUE_ARGS, confirmation: confirmationFor(grant, "issues.create", ISSUE_ARGS) },
    });
    expect(response.json()).toMatchObject({ status: "ok" });
    expect(events).toEqual(["confirmation_required", "started (flushed)", "sent", "ok (flushed)"]);
    // the outcome names the write its started line announced; the earlier call is another one
    expect(ids[1]).toBe(ids[2]);
    expect(ids[0]).not.toBe(ids[1]);
    await app.close();
  });
});

describe("the order of audit and answer", () => {
  it("answers only once the audit line is stored", async () => {
    const stored: AuditRecord[] = [];
    let release = () => {};
    const app = bareApp({
      append: (record) =>
        new Promise<void>((resolve) => {
          release = () => {
            stored.push(record);
            resolve();
          };
        }),
    });
    let answered = false;
    const response = app.inject({ method: "POST", url: "/v1/run", payload: { grant: grantFor(), op: "issues.create" } }).then((result) => {
      answered = true;
      return result;
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(answered).toBe(false);
    release();
    expect((await response).statusCode).toBe(200);
    expect(stored).toHaveLength(1);
    await app.close();
  });
});

describe("an audit log that cannot be written", () => {
  it("answers 500 audit_unavailable instead of the envelope", async () => {
    const app = bareApp({ append: () => Promise.reject(new Error("disk full")) });
    const response = await app.inject({
      method: "POST",
      url: "/v1/run",
      payload: { grant: grantFor({ access: "write" }), op: "issues.create", args: ISSUE_ARGS },
    });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toMatchObject({ error: { code: "audit_unavailable" } });
    await app.close();
  });

  it("sends nothing, and answers audit_unavailable, when a write's started line cannot be written", async () => {
    const stored: { record: AuditRecord; durable: boolean }[] = [];
    const app = bareApp({
      append: (record, options) => {
        if (record.status === "started") return Promise.reject(Object.assign(new Error("ENOSPC"), { code: "ENOSPC" }));
        stored.push({ record, durable: options?.durable === true });
        return Promise.resolve();
      },
    });
    const grant = grantFor({ access: "write" });
    const response = await app.inject({
      method: "POST",
      url: "/v1/run",
      payload: { grant, op: "issues.create", args: ISSUE_ARGS, confirmation: confirmationFor(grant, "issues.create", ISSUE_ARGS) },
    });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toMatchObject({ error: { code: "audit_unavailable" } });
    expect(provider.sent).toEqual([]);
    await app.close();
  });

  it("keeps the app from starting when the audit file cannot be opened", async () => {
    const app = buildApp({ registry, botKeys: bot, trustedMembers: [], callerToken: "t".repeat(32), auditFile: "/dev/null" });
    await expect(app.ready()).rejects.toThrow(/not a regular file/);
  });
});
