// POST /revocations and GET /revocations?since=, in one process and across two
// broker instances sharing a real redis-server (started here).
import { randomBytes } from "node:crypto";
import type { AddressInfo } from "node:net";
import { generateMemberKeys, MAX_REVOCATION_LENGTH, ready, signRevocation } from "@eleven-integrations/grants";
import { startRedisServer, type TestRedisServer } from "@eleven-integrations/test-support";
import type { FastifyInstance } from "fastify";
import { request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testApp } from "../__fixtures__/test-app.js";
import type { BrokerConfig } from "../config/config.js";

let redis: TestRedisServer;
const apps: FastifyInstance[] = [];

/** A real member-signed revocation (the broker only checks its shape; the sidecars verify it). */
function revocation(): string {
  return signRevocation({ member: generateMemberKeys(), grant: `eg1.${randomBytes(180).toString("base64url")}` });
}

async function broker(overrides: Partial<BrokerConfig> = {}): Promise<{ url: string; logs: string[] }> {
  const { app, logs } = testApp(overrides);
  apps.push(app);
  await app.listen({ host: "127.0.0.1", port: 0 });
  return { url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`, logs };
}

async function post(url: string, body: unknown, contentType = "application/json") {
  const response = await request(`${url}/revocations`, {
    method: "POST",
    headers: { "content-type": contentType },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  return {
    status: response.statusCode,
    body: (await response.body.json()) as { kept?: boolean; error?: { code: string; message: string } },
    retryAfter: response.headers["retry-after"],
  };
}

async function since(url: string, cursor?: string) {
  const response = await request(`${url}/revocations${cursor === undefined ? "" : `?since=${encodeURIComponent(cursor)}`}`);
  return { status: response.statusCode, body: (await response.body.json()) as { revocations: string[]; next: string; error?: { code: string } } };
}

beforeAll(async () => {
  await ready();
  redis = await startRedisServer();
});

afterAll(async () => {
  for (const app of apps) await app.close();
  await redis?.close();
});

describe("revocations through the broker", () => {
  it("keeps a member's revocation and serves it from a cursor, then nothing new past next", async () => {
    const { url, logs } = await broker();
    const first = revocation();
    const second = revocation();
    expect(await post(url, { revocation: first })).toMatchObject({ status: 202, body: { kept: true } });
    const all = await since(url, "0");
    expect(all.status).toBe(200);
    expect(all.body.revocations).toEqual([first]);
    expect(all.body.next).toMatch(/^\d+-\d+$/);
    expect((await post(url, { revocation: second })).status).toBe(202);
    // The same token again is kept once.
    expect((await post(url, { revocation: first })).status).toBe(202);
    const after = await since(url, all.body.next);
    expect(after.body.revocations).toEqual([second]);
    expect(await since(url, after.body.next)).toMatchObject({ status: 200, body: { revocations: [], next: after.body.next } });
    expect((await since(url)).body.revocations).toEqual([first, second]);
    expect(logs.join("\n")).not.toContain(first.slice(4, 60));
  });

  it("refuses malformed bodies (400), over-size ones (413) and bad cursors, keeping nothing", async () => {
    const { url } = await broker();
    for (const body of [{}, { revocation: "eg1.AAAA" }, { revocation: "er1.not base64!" }, { revocation: revocation(), extra: 1 }, { revocation: 7 }]) {
      expect((await post(url, body)).body.error?.code).toBe("invalid_body");
    }
    expect((await post(url, `revocation=${revocation()}`, "application/x-www-form-urlencoded")).status).toBe(415);
    const huge = await post(url, { revocation: `er1.${"A".repeat(MAX_REVOCATION_LENGTH + 200)}` });
    expect(huge).toMatchObject({ status: 413, body: { error: { code: "payload_too_large" } } });
    expect((await since(url, "not-a-cursor")).body.error?.code).toBe("invalid_query");
    expect((await since(url, "0")).body.revocations).toEqual([]);
  });

  it("bounds revocations per address, then globally, with Retry-After", async () => {
    const { url } = await broker({ revocationLimits: { perAddress: 3, global: 100 } });
    for (let i = 0; i < 3; i += 1) expect((await post(url, { revocation: revocation() })).status).toBe(202);
    const refused = await post(url, { revocation: revocation() });
    expect(refused).toMatchObject({ status: 429, body: { error: { code: "rate_limited" } } });
    expect(Number(refused.retryAfter)).toBeGreaterThan(0);
    expect((await since(url)).body.revocations).toHaveLength(3);

    const small = await broker({ revocationLimits: { perAddress: 100, global: 2 } });
    expect((await post(small.url, { revocation: revocation() })).status).toBe(202);
    expect((await post(small.url, { revocation: revocation() })).status).toBe(202);
    expect((await post(small.url, { revocation: revocation() })).status).toBe(429);
  });

  it("shares one list through Redis: a revocation posted to one instance is served by the other, and survives a broker restart", async () => {
    const a = await broker({ redisUrl: redis.url });
    const b = await broker({ redisUrl: redis.url });
    const start = await since(b.url, "0");
    const token = revocation();
    expect((await post(a.url, { revocation: token })).status).toBe(202);
    expect((await post(b.url, { revocation: token })).status).toBe(202);
    const seen = await since(b.url, start.body.next);
    expect(seen.body.revocations).toEqual([token]);
    const c = await broker({ redisUrl: redis.url });
    expect((await since(c.url, start.body.next)).body.revocations).toEqual([token]);
    expect((await since(c.url, seen.body.next)).body).toEqual({ revocations: [], next: seen.body.next });
  });

  it("answers 503 while Redis is away, and keeps what is posted once it is back", async () => {
    const a = await broker({ redisUrl: redis.url });
    await redis.stop();
    try {
      expect((await post(a.url, { revocation: revocation() })).body.error?.code).toBe("service_unavailable");
      expect((await since(a.url, "0")).status).toBe(503);
    } finally {
      await redis.start();
    }
    const token = revocation();
    let status = 0;
    for (let i = 0; i < 50 && status !== 202; i += 1) {
      status = (await post(a.url, { revocation: token })).status;
      if (status !== 202) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(status).toBe(202);
    expect((await since(a.url, "0")).body.revocations).toEqual([token]);
  });
});
