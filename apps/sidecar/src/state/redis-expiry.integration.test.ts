// Finding 2 of the second security review, as the attack: replay and revocation
// entries expired at the exact last second the sidecar accepted what they guard,
// read on Redis's clock. With 300 ms of Redis latency, or the sidecar's clock
// 30 s behind, a confirmation ran again and a revocation vanished at once.
// Also finding 8: another member's grant reusing a victim's gid shares nothing.
import { startRedisServer, type TestRedisServer } from "@eleven-integrations/test-support";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { checkedAs } from "../__fixtures__/checked-confirmation.js";
import { startDelayingProxy, type DelayingProxy } from "../__fixtures__/delaying-proxy.js";
import { RedisState, type RedisStateOptions } from "./redis-state.js";

const VICTIM = "victim-member-public-key";
const OTHER = "other-member-public-key";

let redis: TestRedisServer;
let proxy: DelayingProxy;
const states: RedisState[] = [];
let namespaceCount = 0;

async function openState(options: Partial<RedisStateOptions> & { namespace: string }): Promise<RedisState> {
  const state = new RedisState({ url: redis.url, commandTimeoutMs: 2000, ...options });
  states.push(state);
  await state.open();
  expect(state.ready).toBe(true);
  return state;
}

function freshNamespace(): string {
  namespaceCount += 1;
  return `expiry-${namespaceCount}`;
}

beforeAll(async () => {
  redis = await startRedisServer();
  proxy = await startDelayingProxy(redis.port, 300);
});

afterEach(async () => {
  await Promise.all(states.splice(0).map((state) => state.close()));
});

afterAll(async () => {
  await proxy?.close();
  await redis?.close();
});

/** Waits until this second has `fromMs` ms or more of it gone, so a 300 ms trip ends in the next one. */
async function lateInSecond(fromMs: number): Promise<void> {
  for (;;) {
    const into = Date.now() % 1000;
    if (into >= fromMs && into < fromMs + 50) return;
    await new Promise((resolve) => setTimeout(resolve, into < fromMs ? fromMs - into : 1000 - into + fromMs));
  }
}

describe("a sidecar whose clock is 30 s behind", () => {
  const behind = () => Date.now() - 30_000;

  it("keeps a confirmation it still accepts used: the second submission is refused", async () => {
    const namespace = freshNamespace();
    const sidecar = await openState({ namespace, now: behind });
    // The sidecar accepts this confirmation 5 s more by its clock (25 s ago by Redis's).
    const lastSecond = Math.floor(behind() / 1000) + 5;
    expect(await sidecar.consumeConfirmation(await checkedAs(VICTIM, "gid-1.nonce-1", lastSecond))).toBe(true);
    expect(await sidecar.consumeConfirmation(await checkedAs(VICTIM, "gid-1.nonce-1", lastSecond))).toBe(false);
    const another = await openState({ namespace, now: behind });
    expect(await another.consumeConfirmation(await checkedAs(VICTIM, "gid-1.nonce-1", lastSecond))).toBe(false);
  });

  it("keeps a revocation for as long as the grant is accepted, seen by another sidecar", async () => {
    const namespace = freshNamespace();
    const revoking = await openState({ namespace, now: behind });
    await revoking.revoke({ gid: "gid-2", member: VICTIM }, Math.floor(behind() / 1000) + 5);
    const another = await openState({ namespace, now: behind });
    expect(await another.isRevoked({ gid: "gid-2", member: VICTIM }, "shared")).toBe(true);
  });
});

describe("300 ms between the sidecar and Redis", () => {
  it("keeps a confirmation consumed in its last accepted second", async () => {
    const namespace = freshNamespace();
    const sidecar = await openState({ namespace, url: `redis://127.0.0.1:${proxy.port}` });
    await lateInSecond(750);
    // The last second this sidecar accepts is the current one; the SET reaches Redis in the next.
    const lastSecond = Math.floor(Date.now() / 1000) + 1;
    expect(await sidecar.consumeConfirmation(await checkedAs(VICTIM, "gid-3.nonce-3", lastSecond))).toBe(true);
    expect(await sidecar.consumeConfirmation(await checkedAs(VICTIM, "gid-3.nonce-3", lastSecond))).toBe(false);
  });

  it("keeps an entry the skew margin past the last second, whatever the trip took", async () => {
    const namespace = freshNamespace();
    const sidecar = await openState({ namespace, url: `redis://127.0.0.1:${proxy.port}` });
    const checked = await checkedAs(VICTIM, "gid-4.nonce-4", Math.floor(Date.now() / 1000) + 10);
    await sidecar.consumeConfirmation(checked);
    const ttl = await sidecar.client.pttl(`${sidecar.prefix}replay:${checked.member}:${checked.key}`);
    // 10 s of acceptance left, plus 60 s of skew and the 2 s command timeout, less the trip.
    expect(ttl).toBeGreaterThan(70_000);
    expect(ttl).toBeLessThanOrEqual(72_000);
  });
});

describe("another trusted member reusing a victim grant's gid (finding 8)", () => {
  it("cannot burn the victim's confirmation", async () => {
    const sidecar = await openState({ namespace: freshNamespace() });
    const lastSecond = Math.floor(Date.now() / 1000) + 300;
    expect(await sidecar.consumeConfirmation(await checkedAs(OTHER, "shared-gid.nonce", lastSecond))).toBe(true);
    expect(await sidecar.consumeConfirmation(await checkedAs(VICTIM, "shared-gid.nonce", lastSecond))).toBe(true);
  });

  it("cannot spend the victim grant's rate limit", async () => {
    const sidecar = await openState({
      namespace: freshNamespace(),
      rateLimits: { perGrant: { points: 2, durationSeconds: 60 }, perIntegration: { points: 100, durationSeconds: 60 } },
    });
    expect(await sidecar.takeRun({ member: OTHER, gid: "shared-gid", integration: "github" }, "shared")).toEqual({ ok: true });
    expect(await sidecar.takeRun({ member: OTHER, gid: "shared-gid", integration: "github" }, "shared")).toEqual({ ok: true });
    expect((await sidecar.takeRun({ member: OTHER, gid: "shared-gid", integration: "github" }, "shared")).ok).toBe(false);
    expect(await sidecar.takeRun({ member: VICTIM, gid: "shared-gid", integration: "github" }, "shared")).toEqual({ ok: true });
  });
});
