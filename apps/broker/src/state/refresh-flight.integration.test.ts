// Concurrent refreshes of one rotating refresh token, on two broker instances
// sharing a real redis-server (started here), against a counting token endpoint.
import type { AddressInfo } from "node:net";
import { generateBotKeys, openSealed, ready } from "@eleven-integrations/grants";
import { startRedisServer, type TestRedisServer } from "@eleven-integrations/test-support";
import type { FastifyInstance } from "fastify";
import { Redis } from "ioredis";
import { request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../app.js";
import { startRotatingTokenEndpoint, type RotatingTokenEndpoint } from "../__fixtures__/rotating-token-endpoint.js";
import { CLIENT_ID, CLIENT_SECRET, PUBLIC_URL, RETURN_TO, randomKey, testRegistry } from "../__fixtures__/test-registry.js";
import { bindingFor } from "../__fixtures__/token-proofs.js";

let redis: TestRedisServer;
let endpoint: RotatingTokenEndpoint;
const apps: FastifyInstance[] = [];
const stateKey = randomKey();

async function startBroker(redisUrl?: string): Promise<string> {
  const app = buildApp({
    registry: testRegistry(),
    publicUrl: PUBLIC_URL,
    stateKey,
    oauthApps: { testauth: { clientId: CLIENT_ID, clientSecret: CLIENT_SECRET } },
    allowedReturnTo: [RETURN_TO],
    dispatcher: endpoint.dispatcher,
    // This file is about single flight, not the refresh limits (tested in providers.integration.test.ts): room for every burst here.
    refreshLimits: { perClientKey: 1000, perRefreshToken: 1000, perAddress: 1000 },
    ...(redisUrl === undefined ? {} : { redisUrl }),
  });
  apps.push(app);
  await app.listen({ host: "127.0.0.1", port: 0 });
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}

async function refresh(broker: string, refreshToken: string, client: { publicKey: string; secretKey: string }) {
  const response = await request(`${broker}/connect/testauth/refresh`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    // As the member client holding the bundle: with the broker's binding of the token to its key.
    body: JSON.stringify({
      refresh_token: refreshToken,
      client_key: client.publicKey,
      refresh_binding: bindingFor(stateKey, "testauth", refreshToken, client.publicKey),
    }),
  });
  const body = (await response.body.json()) as { tokens?: string; error?: { code: string } };
  const tokens = body.tokens === undefined ? undefined : (JSON.parse(new TextDecoder().decode(openSealed(body.tokens, client))) as Record<string, unknown>);
  return { status: response.statusCode, tokens, error: body.error };
}

beforeAll(async () => {
  await ready();
  redis = await startRedisServer();
  endpoint = await startRotatingTokenEndpoint({ delayMs: 300 });
});

afterAll(async () => {
  for (const app of apps) await app.close();
  await endpoint?.close();
  await redis?.close();
});

describe("refresh single flight", () => {
  it("makes one provider call for concurrent refreshes on two instances sharing Redis, each caller getting the tokens sealed to its own key", async () => {
    const [a, b] = [await startBroker(redis.url), await startBroker(redis.url)];
    endpoint.issue("rt-shared");
    const before = endpoint.calls.length;
    const clients = Array.from({ length: 6 }, () => generateBotKeys());
    const answers = await Promise.all(clients.map((client, index) => refresh(index % 2 === 0 ? a : b, "rt-shared", client)));
    expect(endpoint.calls.length - before).toBe(1);
    for (const answer of answers) expect(answer.status).toBe(200);
    const accessTokens = new Set(answers.map((answer) => answer.tokens?.access_token));
    expect(accessTokens.size).toBe(1);
    const [rotated] = new Set(answers.map((answer) => answer.tokens?.refresh_token));
    expect(rotated).toMatch(/^rt-rotated-/);
    // The sealed tokens open only with the caller's own key.
    expect(() => openSealed("x", clients[0]!)).toThrow();

    // A refresh that starts after the flight ended is a new one: the provider refuses the used token, as before.
    const late = await refresh(b, "rt-shared", generateBotKeys());
    expect([late.status, late.error?.code]).toEqual([400, "refresh_failed"]);
    expect(endpoint.calls.length - before).toBe(2);

    // What Redis holds is sealed under the state key: no token in clear, and it expires.
    const client = new Redis(redis.url);
    try {
      const keys = await client.keys("eleven:broker:refresh:*");
      expect(keys.some((key) => key.includes(":result:"))).toBe(true);
      expect(keys.join(" ")).not.toContain("rt-shared");
      for (const key of keys) {
        const value = (await client.get(key)) ?? "";
        expect(value).not.toContain("at-");
        expect(value).not.toContain("rt-rotated");
        const ttl = await client.pttl(key);
        expect(ttl).toBeGreaterThan(0);
        expect(ttl).toBeLessThanOrEqual(30_000);
      }
    } finally {
      client.disconnect();
    }

    // The rotated token refreshes again (a new flight).
    const next = await refresh(a, String(rotated), generateBotKeys());
    expect(next.status).toBe(200);
    expect(endpoint.calls.length - before).toBe(3);
  });

  it("shares a refusal too: one call, every caller refresh_failed", async () => {
    const [a, b] = [await startBroker(redis.url), await startBroker(redis.url)];
    const before = endpoint.calls.length;
    const answers = await Promise.all([a, b, a, b].map((broker) => refresh(broker, "rt-never-issued", generateBotKeys())));
    expect(endpoint.calls.length - before).toBe(1);
    expect(answers.map((answer) => [answer.status, answer.error?.code])).toEqual(Array.from({ length: 4 }, () => [400, "refresh_failed"]));
  });

  it("without Redis, makes one provider call for concurrent refreshes within one instance", async () => {
    const broker = await startBroker();
    endpoint.issue("rt-local");
    const before = endpoint.calls.length;
    const answers = await Promise.all(Array.from({ length: 4 }, () => refresh(broker, "rt-local", generateBotKeys())));
    expect(endpoint.calls.length - before).toBe(1);
    expect(new Set(answers.map((answer) => answer.tokens?.access_token)).size).toBe(1);
    expect(answers.every((answer) => answer.status === 200)).toBe(true);
  });

  it("keeps refreshing when Redis is down, single flight within the instance", async () => {
    const broker = await startBroker(redis.url);
    endpoint.issue("rt-while-down");
    await redis.stop();
    try {
      const before = endpoint.calls.length;
      const answers = await Promise.all(Array.from({ length: 3 }, () => refresh(broker, "rt-while-down", generateBotKeys())));
      expect(answers.every((answer) => answer.status === 200)).toBe(true);
      expect(endpoint.calls.length - before).toBe(1);
    } finally {
      await redis.start();
    }
  });
});
