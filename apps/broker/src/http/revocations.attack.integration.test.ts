// The third review's attacks on `POST /revocations` and `GET /revocations?since=`
// (findings 1, 2 and 5), each written as the attack against real fastify instances
// (and a real redis-server for the shared feed).
import { randomBytes } from "node:crypto";
import { generateMemberKeys, MAX_REVOCATION_LENGTH, ready, signRevocation, type KeyPair } from "@eleven-integrations/grants";
import { startRedisServer, type TestRedisServer } from "@eleven-integrations/test-support";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testApp } from "../__fixtures__/test-app.js";
import type { BrokerConfig } from "../config/config.js";
import { MAX_REVOCATION_PAGE_BYTES } from "../state/revocation-list.js";

let redis: TestRedisServer;
const apps: FastifyInstance[] = [];

beforeAll(async () => {
  await ready();
  redis = await startRedisServer();
});

afterAll(async () => {
  for (const app of apps) await app.close();
  await redis?.close();
});

async function broker(overrides: Partial<BrokerConfig> = {}): Promise<FastifyInstance> {
  const { app } = testApp(overrides);
  apps.push(app);
  await app.ready();
  return app;
}

/** A member's real revocation of some grant. */
function revocationBy(member: KeyPair): string {
  return signRevocation({ member, grant: `eg1.${randomBytes(180).toString("base64url")}` });
}

/** Anonymous junk of the right shape: nothing the broker can check but its shape. */
function junk(length = 200): string {
  return `er1.${randomBytes(length)
    .toString("base64url")
    .slice(0, length - 4)}`;
}

async function post(app: FastifyInstance, body: unknown, from: { remoteAddress?: string; forwardedFor?: string } = {}) {
  const response = await app.inject({
    method: "POST",
    url: "/revocations",
    headers: { "content-type": "application/json", ...(from.forwardedFor === undefined ? {} : { "x-forwarded-for": from.forwardedFor }) },
    payload: JSON.stringify(body),
    ...(from.remoteAddress === undefined ? {} : { remoteAddress: from.remoteAddress }),
  });
  return { status: response.statusCode, code: (response.json() as { error?: { code: string } }).error?.code };
}

async function page(app: FastifyInstance, since: string): Promise<{ bytes: number; revocations: string[]; next: string }> {
  const response = await app.inject({ method: "GET", url: `/revocations?since=${encodeURIComponent(since)}` });
  expect(response.statusCode).toBe(200);
  return { bytes: Buffer.byteLength(response.body), ...(response.json() as { revocations: string[]; next: string }) };
}

/** Reads the whole feed from `since` the way a follower does; every page must fit `MAX_REVOCATION_PAGE_BYTES` and some JSON. */
async function readAll(app: FastifyInstance, since = "0"): Promise<{ revocations: string[]; pages: number }> {
  const revocations: string[] = [];
  let cursor = since;
  for (let pages = 0; pages < 1000; pages += 1) {
    const answer = await page(app, cursor);
    expect(answer.bytes).toBeLessThanOrEqual(MAX_REVOCATION_PAGE_BYTES + 256);
    if (answer.revocations.length === 0) return { revocations, pages };
    revocations.push(...answer.revocations);
    cursor = answer.next;
  }
  throw new Error("the feed never ended");
}

/** The cursor past everything the feed holds now. */
async function end(app: FastifyInstance): Promise<string> {
  let cursor = "0";
  for (;;) {
    const answer = await page(app, cursor);
    if (answer.revocations.length === 0) return answer.next;
    cursor = answer.next;
  }
}

describe("finding 1: maximum-size junk cannot make a feed page unreadable", () => {
  for (const shared of [false, true]) {
    it(`serves 200 maximum-size entries in pages of at most 1 MiB, every entry once (${shared ? "Redis" : "one process"})`, async () => {
      const app = await broker({ revocationLimits: { perAddress: 1_000, global: 1_000 }, ...(shared ? { redisUrl: redis.url } : {}) });
      const start = await end(app);
      const flood = Array.from({ length: 200 }, () => junk(MAX_REVOCATION_LENGTH));
      for (const entry of flood) expect((await post(app, { revocation: entry })).status).toBe(202);
      const member = generateMemberKeys();
      const real = revocationBy(member);
      expect((await post(app, { revocation: real, member: member.publicKey })).status).toBe(202);
      const read = await readAll(app, start);
      expect(read.revocations).toEqual([...flood, real]);
      // 201 entries of 24 KiB in 1 MiB pages: five or more pages, not one of 4.9 MB.
      expect(read.pages).toBeGreaterThanOrEqual(5);
    }, 60_000);
  }
});

describe("finding 2: anonymous junk cannot spend a member's budget", () => {
  it("junk from 60 addresses spends the anonymous budget only: a member's signed revocation is still kept", async () => {
    const app = await broker();
    for (let address = 1; address <= 60; address += 1) {
      for (let post_ = 0; post_ < 10; post_ += 1) await post(app, { revocation: junk() }, { remoteAddress: `10.0.0.${address}` });
    }
    // The anonymous budget is spent: a new address posting anonymously is refused.
    expect(await post(app, { revocation: junk() }, { remoteAddress: "10.0.1.1" })).toEqual({ status: 429, code: "rate_limited" });
    const member = generateMemberKeys();
    expect((await post(app, { revocation: revocationBy(member), member: member.publicKey }, { remoteAddress: "10.0.1.2" })).status).toBe(202);
    // Even from an address that posted junk.
    expect((await post(app, { revocation: revocationBy(member), member: member.publicKey }, { remoteAddress: "10.0.0.1" })).status).toBe(202);
  });

  it("refuses a member key the revocation is not signed by (400 invalid_signature, counted as anonymous)", async () => {
    const app = await broker({ revocationLimits: { perAddress: 2 } });
    const victim = generateMemberKeys();
    const forged = revocationBy(generateMemberKeys());
    expect(await post(app, { revocation: forged, member: victim.publicKey })).toEqual({ status: 400, code: "invalid_signature" });
    expect(await post(app, { revocation: junk(), member: victim.publicKey })).toEqual({ status: 400, code: "invalid_signature" });
    expect(await post(app, { revocation: forged, member: victim.publicKey })).toEqual({ status: 429, code: "rate_limited" });
    // The victim's own budget was not touched.
    expect((await post(app, { revocation: revocationBy(victim), member: victim.publicKey }, { remoteAddress: "10.0.2.1" })).status).toBe(202);
  });

  it("a replayed revocation of a member (public in the feed) spends nothing of the member's budget", async () => {
    const app = await broker({ revocationLimits: { perMember: 2 } });
    const member = generateMemberKeys();
    const kept = revocationBy(member);
    expect((await post(app, { revocation: kept, member: member.publicKey })).status).toBe(202);
    for (let replay = 0; replay < 20; replay += 1) {
      expect((await post(app, { revocation: kept, member: member.publicKey }, { remoteAddress: `10.0.3.${replay}` })).status).toBe(202);
    }
    expect((await post(app, { revocation: revocationBy(member), member: member.publicKey })).status).toBe(202);
    // Its own budget holds: a third new one in the minute is refused.
    expect(await post(app, { revocation: revocationBy(member), member: member.publicKey })).toEqual({ status: 429, code: "rate_limited" });
  });

  it("behind a proxy: with trustProxy each client has its own address, so 10 junk posts lock out only their sender; off by default", async () => {
    const proxied = await broker({ trustProxy: ["127.0.0.1"] });
    for (let post_ = 0; post_ < 10; post_ += 1) expect((await post(proxied, { revocation: junk() }, { forwardedFor: "203.0.113.7" })).status).toBe(202);
    expect((await post(proxied, { revocation: junk() }, { forwardedFor: "203.0.113.7" })).status).toBe(429);
    expect((await post(proxied, { revocation: junk() }, { forwardedFor: "198.51.100.2" })).status).toBe(202);

    // Off by default: a client cannot pick a fresh address for each post by writing X-Forwarded-For.
    const direct = await broker();
    for (let post_ = 0; post_ < 10; post_ += 1) expect((await post(direct, { revocation: junk() }, { forwardedFor: `203.0.113.${post_}` })).status).toBe(202);
    expect((await post(direct, { revocation: junk() }, { forwardedFor: "198.51.100.99" })).status).toBe(429);
  });
});

describe("finding 5: several instances without Redis do not lose revocations", () => {
  it("a cursor from another instance reads this one from its oldest entry instead of skipping what is older than it", async () => {
    // Two instances without Redis behind one balancer that alternates.
    const a = await broker();
    const b = await broker();
    const member = generateMemberKeys();
    const onA = revocationBy(member);
    expect((await post(a, { revocation: onA, member: member.publicKey })).status).toBe(202);
    await new Promise((resolve) => setTimeout(resolve, 5));
    const onB = revocationBy(member);
    expect((await post(b, { revocation: onB, member: member.publicKey })).status).toBe(202);
    // The follower reads B first: its cursor is B's newest (later than A's entry)...
    const fromB = await page(b, "0");
    expect(fromB.revocations).toEqual([onB]);
    // ...and its next request lands on A, which must not skip A's older entry.
    expect((await page(a, fromB.next)).revocations).toEqual([onA]);
    // A cursor from an older, unbound broker reads from the start too; the instance's own cursor moves on.
    const fromA = await page(a, "99999999999999-0");
    expect(fromA.revocations).toEqual([onA]);
    expect((await page(a, fromA.next)).revocations).toEqual([]);
  });

  it("with Redis every instance serves one feed, and an instance-bound cursor reads the shared feed from its oldest entry", async () => {
    const a = await broker({ redisUrl: redis.url });
    const b = await broker({ redisUrl: redis.url });
    const memory = await broker();
    const start = await end(a);
    const member = generateMemberKeys();
    const first = revocationBy(member);
    const second = revocationBy(member);
    expect((await post(a, { revocation: first, member: member.publicKey })).status).toBe(202);
    expect((await post(b, { revocation: second, member: member.publicKey })).status).toBe(202);
    expect((await page(b, start)).revocations).toEqual([first, second]);
    const memoryCursor = (await page(memory, "0")).next;
    expect(memoryCursor).toMatch(/^\d+-\d{15}$/);
    expect((await readAll(a, memoryCursor)).revocations).toEqual(expect.arrayContaining([first, second]));
  });
});
