// Review finding 3, as the attack: a Redis restarted without persistence (test-support
// runs redis-server with --save "" --appendonly no; stop() kills it, start() brings it
// back empty) revived used confirmations, on the sidecar that used them and on others,
// and forgot revocations.
import { join } from "node:path";
import { startRedisServer, type TestRedisServer } from "@eleven-integrations/test-support";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { checkedExpiring } from "../__fixtures__/checked-confirmation.js";
import { temporaryDirectory } from "../__fixtures__/grant-kit.js";
import { RedisState, type RedisStateOptions } from "./redis-state.js";

const MEMBER = "m".repeat(43);
const GID = "g".repeat(22);

let redis: TestRedisServer;
const states: RedisState[] = [];

beforeAll(async () => {
  redis = await startRedisServer();
});
afterEach(async () => {
  await Promise.all(states.splice(0).map((state) => state.close()));
});
afterAll(async () => {
  await redis?.close();
});

async function sidecar(options: Partial<RedisStateOptions> = {}): Promise<RedisState> {
  const state = new RedisState({ url: redis.url, namespace: "emptied", ...options });
  states.push(state);
  await state.open();
  expect(state.ready).toBe(true);
  return state;
}

async function restartEmpty(...running: RedisState[]): Promise<void> {
  await redis.stop();
  await redis.start();
  await expect.poll(() => running.every((state) => state.ready), { timeout: 15_000, interval: 100 }).toBe(true);
}

describe("a Redis restarted without persistence", () => {
  it("revives no used confirmation, on the sidecar that used it or another, and forgets no revocation", async () => {
    let aheadMs = 0;
    const now = () => Date.now() + aheadMs;
    const revocationFile = join(await temporaryDirectory(), "revocations.log");
    const a = await sidecar({ now, revocationFile });
    const b = await sidecar();
    const exp = Math.floor(Date.now() / 1000) + 300;
    expect(await a.consumeConfirmation(await checkedExpiring(MEMBER, "gid-1.nonce-1", exp))).toBe(true);
    expect(await b.consumeConfirmation(await checkedExpiring(MEMBER, "gid-1.nonce-1", exp))).toBe(false);
    await a.revoke({ gid: GID, member: MEMBER }, Math.floor(Date.now() / 1000) + 600);

    await restartEmpty(a, b);
    // The same sidecar: the replay key is gone, the epoch says so.
    expect(await a.consumeConfirmation(await checkedExpiring(MEMBER, "gid-1.nonce-1", exp))).toBe(false);
    // Another sidecar, which never saw the revocation: a wrote it back when it found the store emptied.
    expect(await b.isRevoked({ gid: GID, member: MEMBER }, "shared")).toBe(true);
    expect(await b.consumeConfirmation(await checkedExpiring(MEMBER, "gid-1.nonce-1", exp))).toBe(false);
    // A confirmation signed just now could have been signed before the loss (clocks differ): refused too.
    expect(await b.consumeConfirmation(await checkedExpiring(MEMBER, "gid-2.nonce-2", Math.floor(Date.now() / 1000) + 300))).toBe(false);
    // One signed well after the loss was found runs, once.
    aheadMs = 120_000;
    const fresh = Math.floor(now() / 1000) + 300;
    expect(await a.consumeConfirmation(await checkedExpiring(MEMBER, "gid-3.nonce-3", fresh))).toBe(true);
    expect(await a.consumeConfirmation(await checkedExpiring(MEMBER, "gid-3.nonce-3", fresh))).toBe(false);
  });

  it("refuses again a confirmation consumed before the loss whose member's clock ran ahead within the skew (third review, finding 12)", async () => {
    const a = await sidecar();
    const b = await sidecar();
    // Signed just now by a member whose clock is 50 s ahead: it says it lives 50 s longer than it does.
    const exp = Math.floor(Date.now() / 1000) + 50 + 300;
    expect(await a.consumeConfirmation(await checkedExpiring(MEMBER, "gid-ahead.nonce-ahead", exp))).toBe(true);
    await restartEmpty(a, b);
    expect(await a.consumeConfirmation(await checkedExpiring(MEMBER, "gid-ahead.nonce-ahead", exp))).toBe(false);
    expect(await b.consumeConfirmation(await checkedExpiring(MEMBER, "gid-ahead.nonce-ahead", exp))).toBe(false);
  });

  it("writes the revocations of a restarted sidecar back from its journal", async () => {
    const revocationFile = join(await temporaryDirectory(), "revocations.log");
    const first = await sidecar({ revocationFile });
    await first.revoke({ gid: GID, member: MEMBER }, Math.floor(Date.now() / 1000) + 600);
    await first.close();
    states.splice(states.indexOf(first), 1);

    const observer = await sidecar();
    await restartEmpty(observer);
    const restarted = await sidecar({ revocationFile });
    // The restarted sidecar found no epoch and wrote back its journal's revocations: the observer, which never knew, reads it.
    expect(await restarted.isRevoked({ gid: GID, member: MEMBER }, "shared")).toBe(true);
    expect(await observer.isRevoked({ gid: GID, member: MEMBER }, "shared")).toBe(true);
  });
});
