// A read's trip to Redis (issue 26): the revocation check and both rate limits in one
// script, with the answers and counters the separate commands had, against a real redis-server.
import { startRedisServer, type TestRedisServer } from "@eleven-integrations/test-support";
import { Redis } from "ioredis";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { LocalState } from "./local-state.js";
import { RedisState } from "./redis-state.js";
import type { RateLimits } from "./shared-state.js";

const MEMBER = "member-public-key";
const LIMITS: RateLimits = { perGrant: { points: 3, durationSeconds: 60 }, perIntegration: { points: 5, durationSeconds: 60 } };

let redis: TestRedisServer;
let observer: Redis;
const states: RedisState[] = [];
let namespaceCount = 0;

async function openState(rateLimits: RateLimits = LIMITS): Promise<RedisState> {
  namespaceCount += 1;
  const state = new RedisState({ url: redis.url, namespace: `admit-${namespaceCount}`, rateLimits });
  states.push(state);
  await state.open();
  expect(state.ready).toBe(true);
  return state;
}

/** The commands clients send while `during` runs, as MONITOR shows them (those a script calls are marked `lua` and left out). */
async function commandsSent(during: () => Promise<unknown>): Promise<string[]> {
  const monitor = await observer.monitor();
  const seen: string[] = [];
  monitor.on("monitor", (_time: string, args: string[], source: string) => {
    if (!source.startsWith("lua")) seen.push(String(args[0]).toLowerCase());
  });
  try {
    await during();
    // MONITOR's lines arrive on their own connection: a PING through the client closes the window.
    const closing = observer.duplicate();
    await closing.ping();
    closing.disconnect();
    await new Promise((resolve) => setTimeout(resolve, 50));
  } finally {
    monitor.disconnect();
  }
  // The closing connection's own INFO (sent on connect) and PING.
  return seen.filter((command) => command !== "ping" && command !== "info");
}

beforeAll(async () => {
  redis = await startRedisServer();
  observer = new Redis(redis.url);
});

afterEach(async () => {
  await Promise.all(states.splice(0).map((state) => state.close()));
});

afterAll(async () => {
  observer?.disconnect();
  await redis?.close();
});

describe("admit with Redis", () => {
  it("answers a read with one command to Redis", async () => {
    const state = await openState();
    // The first call may load the script (EVALSHA refused, then EVAL); after that it is one EVALSHA.
    expect(await state.admit({ gid: "gid-1", member: MEMBER, integration: "github" }, true)).toEqual({ ok: true });
    const sent = await commandsSent(async () => expect(await state.admit({ gid: "gid-1", member: MEMBER, integration: "github" }, true)).toEqual({ ok: true }));
    expect(sent).toEqual(["evalsha"]);
    // The separate checks it replaced: the revocation's MULTI (GET, PTTL) and two limiters' scripts.
    const separate = await commandsSent(async () => {
      await state.isRevoked({ gid: "gid-1", member: MEMBER }, "shared");
      await state.takeRun({ member: MEMBER, gid: "gid-1", integration: "github" }, "local-ok");
    });
    expect(separate.length).toBeGreaterThan(3);
  });

  it("counts on the same keys as the limiters a write uses: reads and writes share the grant's and the integration's limits", async () => {
    const state = await openState();
    expect(await state.admit({ gid: "gid-1", member: MEMBER, integration: "github" }, true)).toEqual({ ok: true });
    expect(await state.takeRun({ member: MEMBER, gid: "gid-1", integration: "github" }, "shared")).toEqual({ ok: true });
    expect(await state.admit({ gid: "gid-1", member: MEMBER, integration: "github" }, true)).toEqual({ ok: true });
    // The grant's fourth run: over its 3.
    const refused = await state.takeRun({ member: MEMBER, gid: "gid-1", integration: "github" }, "shared");
    expect(refused).toMatchObject({ ok: false, scope: "grant" });
    expect(await state.admit({ gid: "gid-1", member: MEMBER, integration: "github" }, true)).toMatchObject({
      ok: false,
      scope: "grant",
      retryAfterSeconds: expect.any(Number),
    });
    // The integration counted 3 (a run refused by its grant's limit is not counted there): two more, then refused.
    expect(await state.admit({ gid: "gid-2", member: MEMBER, integration: "github" }, true)).toEqual({ ok: true });
    expect(await state.takeRun({ member: MEMBER, gid: "gid-3", integration: "github" }, "shared")).toEqual({ ok: true });
    const overIntegration = await state.admit({ gid: "gid-4", member: MEMBER, integration: "github" }, true);
    expect(overIntegration).toMatchObject({ ok: false, scope: "integration" });
    if (!overIntegration.ok && overIntegration.scope === "integration") {
      expect(overIntegration.retryAfterSeconds).toBeGreaterThan(0);
      expect(overIntegration.retryAfterSeconds).toBeLessThanOrEqual(60);
    }
    expect(await observer.pttl(`${state.prefix}rl:grant:${MEMBER}:gid-1`)).toBeGreaterThan(0);
  });

  it("answers revoked for a grant another sidecar revoked, counting nothing, and remembers it", async () => {
    const [otherBot, reading] = [await openState(), await openState()];
    // Two sidecars of one bot: the second shares the first's namespace.
    const sibling = new RedisState({ url: redis.url, namespace: reading.prefix.slice("eleven:sidecar:".length, -1), rateLimits: LIMITS });
    states.push(sibling);
    await sibling.open();
    await sibling.revoke({ gid: "gid-r", member: MEMBER }, Math.floor(Date.now() / 1000) + 600);
    expect(await reading.admit({ gid: "gid-r", member: MEMBER, integration: "github" }, true)).toEqual({ ok: false, scope: "revoked" });
    expect(await observer.exists(`${reading.prefix}rl:grant:${MEMBER}:gid-r`)).toBe(0);
    expect(await reading.isRevoked({ gid: "gid-r", member: MEMBER }, "local-ok")).toBe(true);
    // Another bot's sidecar knows nothing of it.
    expect(await otherBot.admit({ gid: "gid-r", member: MEMBER, integration: "github" }, true)).toEqual({ ok: true });
  });

  it("throws unavailable while Redis cannot be reached, as the revocation check did", async () => {
    const state = new RedisState({ url: "redis://127.0.0.1:1", namespace: "admit-down", commandTimeoutMs: 200 });
    states.push(state);
    await expect(state.admit({ gid: "gid-1", member: MEMBER, integration: "github" }, true)).rejects.toMatchObject({ code: "unavailable" });
  });
});

describe("admit in process", () => {
  it("answers revoked before counting, then counts the grant's limit", async () => {
    const state = new LocalState({ rateLimits: { perGrant: { points: 1, durationSeconds: 60 }, perIntegration: { points: 10, durationSeconds: 60 } } });
    await state.open();
    await state.revoke({ gid: "gid-r", member: MEMBER }, Math.floor(Date.now() / 1000) + 600);
    expect(await state.admit({ gid: "gid-r", member: MEMBER, integration: "github" }, true)).toEqual({ ok: false, scope: "revoked" });
    expect(await state.admit({ gid: "gid-1", member: MEMBER, integration: "github" }, true)).toEqual({ ok: true });
    expect(await state.admit({ gid: "gid-1", member: MEMBER, integration: "github" }, true)).toMatchObject({ ok: false, scope: "grant" });
    await state.close();
  });
});
