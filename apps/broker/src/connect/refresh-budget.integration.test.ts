// Finding 4 of the second security review, as the attacks: refresh budgets keyed
// by caller-chosen values. Against a counting token endpoint whose refresh
// tokens rotate (RFC 9700 §4.14.2), so every provider call is seen.
import type { AddressInfo } from "node:net";
import { generateBotKeys, openSealed, ready } from "@eleven-integrations/grants";
import { startRedisServer, type TestRedisServer } from "@eleven-integrations/test-support";
import type { FastifyInstance } from "fastify";
import { request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testApp } from "../__fixtures__/test-app.js";
import { bindingFor } from "../__fixtures__/token-proofs.js";
import { startRotatingTokenEndpoint, type RotatingTokenEndpoint } from "../__fixtures__/rotating-token-endpoint.js";
import type { BrokerConfig } from "../config/config.js";

let endpoint: RotatingTokenEndpoint;
let redis: TestRedisServer;
const apps: FastifyInstance[] = [];
/** A valid X25519 public key nobody keeps: what an attacker sends by the thousand. */
const throwAwayKey = () => generateBotKeys().publicKey;

/** One fixed clock: every request of a test falls in one budget window, however slow the machine. */
const NOW = Math.floor(Date.now() / 1000);

const stateKeys = new WeakMap<FastifyInstance, string>();

function broker(overrides: Partial<BrokerConfig> = {}): FastifyInstance {
  const { app, config } = testApp({ dispatcher: endpoint.dispatcher, logger: false, now: () => NOW, ...overrides });
  apps.push(app);
  stateKeys.set(app, config.stateKey);
  return app;
}

/**
 * A refresh body with the broker's binding of the token to the key: these budgets bound
 * callers who pass the binding check (since the third review, a caller without one
 * reaches no provider and spends nothing), so the attacker here holds bindings.
 */
function body(app: FastifyInstance, refreshToken: string, clientKey: string): string {
  return JSON.stringify({
    refresh_token: refreshToken,
    client_key: clientKey,
    refresh_binding: bindingFor(stateKeys.get(app) as string, "testauth", refreshToken, clientKey),
  });
}

function refresh(app: FastifyInstance, refreshToken: string, clientKey: string, remoteAddress = "203.0.113.7") {
  return app.inject({
    method: "POST",
    url: "/connect/testauth/refresh",
    remoteAddress,
    headers: { "content-type": "application/json" },
    payload: body(app, refreshToken, clientKey),
  });
}

beforeAll(async () => {
  await ready();
  endpoint = await startRotatingTokenEndpoint({ delayMs: 200 });
  redis = await startRedisServer();
});

afterAll(async () => {
  for (const app of apps) await app.close();
  await endpoint?.close();
  await redis?.close();
});

describe("refresh budgets (finding 4)", () => {
  it("60 anonymous refreshes with distinct tokens and keys make at most the per-address budget's provider calls", async () => {
    const app = broker({ refreshLimits: { perAddress: 5, global: 20 } });
    const before = endpoint.calls.length;
    const answers = [];
    for (let index = 0; index < 60; index += 1) answers.push(await refresh(app, `guess-a-${index}`, throwAwayKey()));
    expect(endpoint.calls.length - before).toBe(5);
    expect(answers.slice(5).every((answer) => answer.statusCode === 429 && Number(answer.headers["retry-after"]) >= 1)).toBe(true);
  }, 60_000);

  it("60 anonymous refreshes from 60 addresses make at most the global budget's provider calls", async () => {
    const app = broker({ refreshLimits: { perAddress: 5, global: 20 } });
    const before = endpoint.calls.length;
    for (let index = 0; index < 60; index += 1) await refresh(app, `guess-b-${index}`, throwAwayKey(), `198.51.100.${index + 1}`);
    expect(endpoint.calls.length - before).toBe(20);
  }, 60_000);

  it("50,000 throw-away requests do not lock a new member client out", async () => {
    const app = broker();
    const before = endpoint.calls.length;
    const keys = Array.from({ length: 100 }, throwAwayKey);
    for (let batch = 0; batch < 50; batch += 1) {
      await Promise.all(
        Array.from({ length: 1000 }, (_, index) => refresh(app, `junk-${batch}-${index}`, keys[index % keys.length] as string, `192.0.2.${(index % 10) + 1}`)),
      );
    }
    // Ten addresses, each held to its 30 calls a minute, whatever the keys and tokens.
    expect(endpoint.calls.length - before).toBeLessThanOrEqual(300);
    const member = generateBotKeys();
    endpoint.issue("rt-new-member");
    const answer = await refresh(app, "rt-new-member", member.publicKey, "203.0.113.200");
    expect(answer.statusCode).toBe(200);
    const tokens = JSON.parse(new TextDecoder().decode(openSealed(answer.json().tokens, member))) as { access_token: string };
    expect(tokens.access_token).toMatch(/^at-/);
  }, 240_000);

  it("10 concurrent callers of one token all get the result, and one provider call is made", async () => {
    const app = broker();
    endpoint.issue("rt-shared");
    const before = endpoint.calls.length;
    const members = Array.from({ length: 10 }, () => generateBotKeys());
    const answers = await Promise.all(members.map((member) => refresh(app, "rt-shared", member.publicKey)));
    expect(endpoint.calls.length - before).toBe(1);
    const accessTokens = answers.map((answer, index) => {
      expect(answer.statusCode).toBe(200);
      return (
        JSON.parse(new TextDecoder().decode(openSealed(answer.json().tokens, members[index] as { publicKey: string; secretKey: string }))) as {
          access_token: string;
        }
      ).access_token;
    });
    expect(new Set(accessTokens).size).toBe(1);
  });

  it("shares the budgets through Redis: two instances spend one per-address budget", async () => {
    const a = broker({ redisUrl: redis.url, refreshLimits: { perAddress: 4 } });
    const b = broker({ redisUrl: redis.url, refreshLimits: { perAddress: 4 } });
    for (const app of [a, b]) {
      await app.listen({ host: "127.0.0.1", port: 0 });
    }
    const before = endpoint.calls.length;
    const statuses = [];
    for (let index = 0; index < 10; index += 1) {
      const app = index % 2 === 0 ? a : b;
      const port = (app.server.address() as AddressInfo).port;
      const response = await request(`http://127.0.0.1:${port}/connect/testauth/refresh`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: body(app, `guess-c-${index}`, throwAwayKey()),
      });
      await response.body.dump();
      statuses.push(response.statusCode);
    }
    expect(endpoint.calls.length - before).toBe(4);
    expect(statuses.filter((status) => status === 429)).toHaveLength(6);
  });
});
