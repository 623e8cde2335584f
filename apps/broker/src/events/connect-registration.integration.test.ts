// From a real connect to a registration: the callback seals an account_binding to the client key,
// and only the member whose Ed25519 key that client key is (memberBoxKey) registers with it.
import { randomBytes } from "node:crypto";
import type { AddressInfo } from "node:net";
import { generateBotKeys, generateMemberKeys, memberBoxKeys, openSealed, ready, signRegistration, type KeyPair } from "@eleven-integrations/grants";
import { loadRegistry } from "@eleven-integrations/loader";
import { manifestFiles } from "@eleven-integrations/manifests";
import type { Manifest } from "@eleven-integrations/schema";
import { startRedisServer, type TestRedisServer } from "@eleven-integrations/test-support";
import type { FastifyInstance } from "fastify";
import { request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../app.js";
import { Browser } from "../__fixtures__/browser.js";
import { identityExample } from "../__fixtures__/identity-examples.js";
import { PROVIDERS, type ProviderDoc } from "../__fixtures__/provider-docs.js";
import { startProviderStandIn, type ProviderStandIn } from "../__fixtures__/provider-stand-in.js";
import { CLIENT_ID, CLIENT_SECRET, PUBLIC_URL, RETURN_TO, randomKey } from "../__fixtures__/test-registry.js";
import type { TokenBundle } from "../connect/token-bundle.js";

const shipped = loadRegistry(manifestFiles);
const doc = PROVIDERS.find((provider) => provider.id === "slack") as ProviderDoc;
let redis: TestRedisServer;
let standIn: ProviderStandIn;
let app: FastifyInstance;
let broker: string;

beforeAll(async () => {
  await ready();
  redis = await startRedisServer();
  standIn = await startProviderStandIn(doc, { clientId: CLIENT_ID, clientSecret: CLIENT_SECRET }, identityExample(shipped.get("slack") as Manifest));
  app = buildApp({
    registry: shipped,
    publicUrl: PUBLIC_URL,
    stateKey: randomKey(),
    oauthApps: { slack: { clientId: CLIENT_ID, clientSecret: CLIENT_SECRET } },
    allowedReturnTo: [RETURN_TO],
    dispatcher: standIn.dispatcher,
    logger: false,
    redisUrl: redis.url,
  });
  await app.listen({ host: "127.0.0.1", port: 0 });
  broker = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await app?.close();
  await standIn?.close();
  await redis?.close();
});

/** A member's client connecting Slack with `clientKeys`: the bundle the broker sealed to it. */
async function connect(clientKeys: KeyPair): Promise<TokenBundle> {
  const browser = new Browser();
  const started = await browser.get(`${broker}/connect/slack/start?client_key=${clientKeys.publicKey}&return_to=${encodeURIComponent(RETURN_TO)}`);
  const callback = standIn.consent(new URL(started.location as string));
  const done = await browser.get(`${broker}${callback.pathname}${callback.search}`);
  const tokens = new URLSearchParams((done.location as string).slice(RETURN_TO.length + 1)).get("tokens") as string;
  return JSON.parse(new TextDecoder().decode(openSealed(tokens, clientKeys))) as TokenBundle;
}

async function register(member: KeyPair, bundle: TokenBundle) {
  const registration = signRegistration({
    member,
    ttlSeconds: 86400,
    registration: {
      sid: randomBytes(16).toString("base64url"),
      bot: generateBotKeys().publicKey,
      integration: "slack",
      account: bundle.account?.id as string,
      account_binding: bundle.account_binding as string,
      events: ["app.mention"],
    },
  });
  const response = await request(`${broker}/subscriptions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ registration }),
  });
  return { status: response.statusCode, body: (await response.body.json()) as { error?: { code: string } } };
}

describe("connect, then register the connected account's events", () => {
  it("the bundle's account_binding registers for the member whose key connected, and for no other member", async () => {
    const member = generateMemberKeys();
    const bundle = await connect(memberBoxKeys(member));
    expect(bundle.account?.id).toMatch(/\S/);
    expect(bundle.account_binding).toMatch(/^ab1\./);
    expect((await register(member, bundle)).status).toBe(201);
    // Another member holding the same bundle (a copy) cannot route that account's events to their bot.
    expect((await register(generateMemberKeys(), bundle)).body.error?.code).toBe("account_not_connected");
    // A client key that is not the member's (a separate X25519 key) connects, but its binding names that key.
    const separate = await connect(generateBotKeys());
    expect((await register(member, separate)).body.error?.code).toBe("account_not_connected");
  });
});
