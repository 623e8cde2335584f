import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { generateMemberKeys, signRevocation } from "@eleven-integrations/grants";
import Fastify, { type FastifyInstance } from "fastify";
import { Agent, request, type Dispatcher } from "undici";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { buildApp } from "../app.js";
import { approvalFor, bot, CALLER_TOKEN, grantFor, MEMBER_TOKEN, member, registry, temporaryDirectory } from "../__fixtures__/grant-kit.js";
import { captureLogs, leakedSecrets, type LogCapture } from "../__fixtures__/log-capture.js";
import { releaseKey } from "../__fixtures__/release-kit.js";
import { authorized, mockProvider, type MockProvider } from "../__fixtures__/test-app.js";
import { SidecarStartError } from "../start/start-error.js";
import { parseEnvironment } from "../config/environment-schema.js";
import type { SidecarConfig } from "../config/config.js";
import { startRedisServer } from "@eleven-integrations/test-support";

type Json = Record<string, unknown>;
const GITHUB = "https://api.github.com";

/**
 * A stand-in for the broker's revocation routes (the broker's `buildApp` cannot be
 * imported from the sidecar: apps do not import each other). It copies what
 * apps/broker/README.md documents: `POST /revocations { revocation }` -> 202
 * `{ kept: true }`; `GET /revocations?since=<cursor>` -> `{ revocations: ["er1.…"],
 * next: "<cursor>" }`, oldest first, `since` absent meaning from the start.
 * `entries` may hold anything, so a test can make it serve what a faulty broker would.
 */
interface StandInBroker {
  app: FastifyInstance;
  origin: string;
  entries: unknown[];
  /** The `since` of every `GET /revocations`, in order (undefined when absent). */
  since: (string | undefined)[];
  /** Every `next` answered, in order. */
  answered: string[];
  /** Answers given instead of the list while any are left (status, raw body). */
  faults: { status: number; body: string }[];
}

async function startStandInBroker(): Promise<StandInBroker> {
  const app = Fastify({ forceCloseConnections: true });
  const broker: StandInBroker = { app, origin: "", entries: [], since: [], answered: [], faults: [] };
  app.get("/registry.signed", (_request, reply) => reply.code(404).send());
  app.post("/revocations", (request, reply) => {
    broker.entries.push((request.body as { revocation: string }).revocation);
    return reply.code(202).send({ kept: true });
  });
  app.get("/revocations", (request, reply) => {
    const since = (request.query as { since?: string }).since;
    broker.since.push(since);
    const fault = broker.faults.shift();
    if (fault !== undefined) return reply.code(fault.status).type("application/json").send(fault.body);
    const from = since === undefined ? 0 : Number(since);
    const next = String(broker.entries.length);
    broker.answered.push(next);
    return reply.type("application/json").send(JSON.stringify({ revocations: broker.entries.slice(from), next }));
  });
  broker.origin = await app.listen({ host: "127.0.0.1", port: 0 });
  return broker;
}

let broker: StandInBroker;
let provider: MockProvider;
let sidecar: FastifyInstance | undefined;
let loopback: Agent;
let logs: LogCapture;
/** Paths the sidecar fetched through the registry dispatcher. */
let fetched: string[];
let home: string;

beforeEach(async () => {
  broker = await startStandInBroker();
  loopback = new Agent();
  fetched = [];
  logs = captureLogs();
  home = await temporaryDirectory();
});
afterEach(async () => {
  await sidecar?.close();
  sidecar = undefined;
  await broker.app.close();
  await loopback.close();
});

async function followingSidecar(overrides: Partial<SidecarConfig> = {}): Promise<FastifyInstance> {
  provider = mockProvider();
  const registryDispatcher: Dispatcher = loopback.compose((dispatch) => (options, handler) => {
    fetched.push(options.path);
    return dispatch(options, handler);
  });
  sidecar = buildApp({
    registry,
    botKeys: bot,
    trustedMembers: [member.publicKey],
    callerToken: CALLER_TOKEN,
    auditFile: join(home, "audit.log"),
    revocationFile: join(home, "revocations.log"),
    dispatcher: provider.dispatcher,
    logger: { level: "info", stream: logs.stream },
    registryUrl: `${broker.origin}/registry.signed`,
    registryKeys: [releaseKey.publicKey],
    registryDispatcher,
    revocationSyncMs: 200,
    ...overrides,
  });
  await sidecar.ready();
  return sidecar;
}

async function run(target: FastifyInstance, grant: string): Promise<Json> {
  return (await target.inject({ method: "POST", url: "/v1/run", headers: authorized, payload: { grant, op: "repos.list" } })).json() as Json;
}

async function memberPosts(revocation: string): Promise<number> {
  const response = await request(`${broker.origin}/revocations`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ revocation }),
  });
  await response.body.dump();
  return response.statusCode;
}

async function waitFor(check: () => boolean | Promise<boolean>, what: string): Promise<void> {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`never happened: ${what}`);
}

describe("a sidecar following its broker's revocations", () => {
  it("stops a grant revoked at the broker within 5 s, skips malformed and foreign entries, and passes its cursor as since", async () => {
    const target = await followingSidecar();
    provider.agent
      .get(GITHUB)
      .intercept({ path: (path) => path.startsWith("/user/repos"), method: "GET" })
      .reply(200, [])
      .persist();
    const grant = grantFor();
    expect(await run(target, grant)).toMatchObject({ status: "ok", op: "repos.list" });
    expect(provider.sent).toHaveLength(1);
    // The first fetch carries no since; it went through the registry's dispatcher.
    expect(broker.since[0]).toBeUndefined();
    expect(fetched).toContain("/revocations");

    const stranger = generateMemberKeys();
    const foreign = signRevocation({ member: stranger, grant: grantFor({ issuer: stranger }) });
    const otherBotsGrant = signRevocation({ member, grant: grantFor({ botPublicKey: generateMemberKeys().publicKey }) });
    broker.entries.push(42, "er1.not-a-revocation", { revocation: "er1.x" });
    expect(await memberPosts(foreign)).toBe(202);
    expect(await memberPosts(otherBotsGrant)).toBe(202);
    const revocation = signRevocation({ member, grant });
    const posted = Date.now();
    expect(await memberPosts(revocation)).toBe(202);

    await waitFor(() => /1 recorded/.test(logs.lines.join("")), "the revocation followed");
    expect(await run(target, grant)).toMatchObject({ status: "error", error: { code: "grant_invalid" } });
    expect(Date.now() - posted).toBeLessThan(5_000);
    // The refused read sent nothing to the provider.
    expect(provider.sent).toHaveLength(1);
    // Another grant of the same member still runs: only the revoked one stops.
    expect(await run(target, grantFor())).toMatchObject({ status: "ok" });

    // The page with all six entries answered next "6"; the following fetch asked since=6.
    await waitFor(() => broker.since.includes("6"), "a fetch with since=6");
    broker.since.forEach((since, index) => {
      if (index === 0) expect(since).toBeUndefined();
      else expect(broker.answered.slice(0, index)).toContain(since);
    });
    expect(logs.lines.join("")).toMatch(/revocations followed from .*\/revocations: 1 recorded, 5 skipped/);
    // Recorded like POST /v1/revoke: in the local journal.
    expect((await readFile(join(home, "revocations.log"), "utf8")).trim().split("\n")).toHaveLength(1);
    expect(leakedSecrets(logs.lines, [revocation, foreign, MEMBER_TOKEN, CALLER_TOKEN])).toEqual([]);
  });

  it("stops a standing approval revoked at the broker: the following sidecar refuses it", async () => {
    const target = await followingSidecar();
    const grant = grantFor({ access: "write" });
    const approval = approvalFor({
      op: "issues.create",
      args: { owner: { eq: "octocat" }, repo: { eq: "hello-world" }, title: "any", body: "any" },
      budget: { runs: 5, per_seconds: 3600 },
    });
    const review = async () =>
      (await target.inject({ method: "POST", url: "/v1/policy", headers: authorized, payload: { grant, approvals: [approval] } })).json() as Json;
    expect(JSON.stringify(await review())).toContain('"runs_left":5');
    expect(await memberPosts(signRevocation({ member, grant: approval }))).toBe(202);
    await waitFor(() => /1 recorded/.test(logs.lines.join("")), "the approval's revocation followed");
    expect(await review()).toMatchObject({ refused_approvals: [{ index: 0, code: "approval_invalid", message: "the member revoked this approval" }] });
    const refused = (
      await target.inject({
        method: "POST",
        url: "/v1/run",
        headers: authorized,
        payload: { grant, op: "issues.create", args: { owner: "octocat", repo: "hello-world", title: "Late" }, approval },
      })
    ).json() as Json;
    expect(refused).toMatchObject({ status: "error", error: { code: "approval_invalid" } });
    expect(provider.sent).toHaveLength(0);
  });

  it("logs a failed fetch (5xx, not JSON, the wrong shape, the broker gone) and keeps following from the same cursor", async () => {
    const target = await followingSidecar();
    provider.agent
      .get(GITHUB)
      .intercept({ path: (path) => path.startsWith("/user/repos"), method: "GET" })
      .reply(200, [])
      .persist();
    const grant = grantFor();
    broker.faults.push(
      { status: 503, body: "{}" },
      { status: 200, body: "not json" },
      { status: 200, body: JSON.stringify({ revocations: "er1.x", next: "1" }) },
    );
    await waitFor(() => broker.faults.length === 0 && broker.since.length >= 5, "the faults served and one more fetch");
    const afterFaults = broker.since.slice(1);
    // No fault moved the cursor: every fetch after the first good one asks since=0.
    expect(afterFaults.every((since) => since === "0")).toBe(true);
    const lines = logs.lines.join("");
    expect(lines).toMatch(/not followed \(http_status\)/);
    expect(lines).toMatch(/not followed \(malformed\)/);

    expect(await memberPosts(signRevocation({ member, grant }))).toBe(202);
    await waitFor(() => /1 recorded/.test(logs.lines.join("")), "the revocation followed after the faults");
    expect(await run(target, grant)).toMatchObject({ status: "error", error: { code: "grant_invalid" } });
    expect(provider.sent).toHaveLength(0);

    // The broker gone: the sidecar logs it and goes on answering.
    await broker.app.close();
    await waitFor(() => logs.lines.join("").includes("not followed (unreachable)"), "an unreachable fetch logged");
    expect((await target.inject({ method: "GET", url: "/v1/identity", headers: authorized })).statusCode).toBe(200);
  });

  it("records a followed revocation in Redis when configured: another sidecar of the bot that follows no broker refuses the grant too", async () => {
    const redis = await startRedisServer();
    const other = buildApp({
      registry,
      botKeys: bot,
      trustedMembers: [member.publicKey],
      callerToken: CALLER_TOKEN,
      auditFile: join(home, "other-audit.log"),
      redisUrl: redis.url,
      dispatcher: mockProvider().dispatcher,
    });
    try {
      await followingSidecar({ redisUrl: redis.url });
      await other.ready();
      const grant = grantFor();
      expect(await memberPosts(signRevocation({ member, grant }))).toBe(202);
      await waitFor(() => /1 recorded/.test(logs.lines.join("")), "the revocation followed");
      expect(await run(other, grant)).toMatchObject({ status: "error", error: { code: "grant_invalid" } });
    } finally {
      await other.close();
      await sidecar?.close();
      sidecar = undefined;
      await redis.close();
    }
  });

  it("refuses an interval above 5 s or below 100 ms, before starting, in the config and the environment", () => {
    const base = { registry, botKeys: bot, trustedMembers: [], callerToken: CALLER_TOKEN, auditFile: "/tmp/unused-audit.log" };
    for (const revocationSyncMs of [5_001, 99, 1.5]) {
      expect(() => buildApp({ ...base, revocationSyncMs })).toThrow(SidecarStartError);
      expect(() => buildApp({ ...base, revocationSyncMs })).toThrow(/revocationSyncMs must be a whole number of milliseconds from 100 to 5000/);
    }
    expect(parseEnvironment({ SIDECAR_REVOCATION_SYNC_MS: "6000" }).success).toBe(false);
    expect(parseEnvironment({ SIDECAR_REVOCATION_SYNC_MS: "50" }).success).toBe(false);
    const parsed = parseEnvironment({ SIDECAR_REVOCATION_SYNC_MS: "250" });
    expect(parsed.success && parsed.data.SIDECAR_REVOCATION_SYNC_MS).toBe(250);
  });
});
