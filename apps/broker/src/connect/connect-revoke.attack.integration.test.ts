// The third review's attacks on `POST /connect/:id/revoke`, against loopback TLS
// stand-ins of the providers (certificates from a test CA):
// - item 3: `POST /connect/stripe/revoke` with any string as the token deauthorized
//   whichever `acct_` was named, with the platform key, and the answer told a connected
//   account from another;
// - item 2: junk tokens from many addresses spent the instance budget (each one reaching
//   the provider with the broker's client secret), and a member's revocation got 429.
import type { AddressInfo } from "node:net";
import { generateBotKeys, openSealed, ready } from "@eleven-integrations/grants";
import { loadRegistry } from "@eleven-integrations/loader";
import { manifestFiles } from "@eleven-integrations/manifests";
import type { Manifest } from "@eleven-integrations/schema";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../app.js";
import { Browser } from "../__fixtures__/browser.js";
import { identityExample } from "../__fixtures__/identity-examples.js";
import { stripe } from "../__fixtures__/provider-docs.js";
import { startProviderStandIn, type ProviderStandIn } from "../__fixtures__/provider-stand-in.js";
import { startRevocationStandIn, type RevocationStandIn } from "../__fixtures__/revocation-stand-in.js";
import { CLIENT_ID, CLIENT_SECRET, PUBLIC_URL, RETURN_TO, randomKey } from "../__fixtures__/test-registry.js";
import { proofFor } from "../__fixtures__/token-proofs.js";
import type { BrokerConfig } from "../config/config.js";
import type { TokenBundle } from "./token-bundle.js";

const shipped = loadRegistry(manifestFiles);
const oauthApp = { clientId: CLIENT_ID, clientSecret: CLIENT_SECRET };
/** Every broker instance here shares the state key, as instances behind one balancer do. */
const STATE_KEY = randomKey();
let client: { publicKey: string; secretKey: string };
let provider: ProviderStandIn;
let revocations: RevocationStandIn;
const apps: FastifyInstance[] = [];

beforeAll(async () => {
  await ready();
  client = generateBotKeys();
  provider = await startProviderStandIn(stripe, oauthApp, identityExample(shipped.get("stripe") as Manifest));
  revocations = await startRevocationStandIn(oauthApp);
});

afterAll(async () => {
  for (const app of apps) await app.close();
  await provider?.close();
  await revocations?.close();
});

function broker(overrides: Partial<BrokerConfig>): FastifyInstance {
  const app = buildApp({
    registry: shipped,
    publicUrl: PUBLIC_URL,
    stateKey: STATE_KEY,
    oauthApps: { stripe: oauthApp, github: oauthApp },
    allowedReturnTo: [RETURN_TO],
    dispatcher: revocations.dispatcher,
    logger: false,
    ...overrides,
  });
  apps.push(app);
  return app;
}

/** A member connects Stripe through the broker (start, consent at the stand-in, callback): the bundle it opens. */
async function connectStripe(): Promise<TokenBundle> {
  const connecting = broker({ dispatcher: provider.dispatcher });
  await connecting.listen({ host: "127.0.0.1", port: 0 });
  const origin = `http://127.0.0.1:${(connecting.server.address() as AddressInfo).port}`;
  const browser = new Browser();
  const start = await browser.get(`${origin}/connect/stripe/start?client_key=${client.publicKey}&return_to=${encodeURIComponent(RETURN_TO)}`);
  const callback = provider.consent(new URL(start.location as string));
  const connected = await browser.get(`${origin}${callback.pathname}${callback.search}`);
  const sealed = new URLSearchParams((connected.location as string).slice(RETURN_TO.length + 1)).get("tokens") as string;
  return JSON.parse(new TextDecoder().decode(openSealed(sealed, client))) as TokenBundle;
}

function revoke(app: FastifyInstance, id: string, body: unknown, remoteAddress = "203.0.113.9") {
  return app.inject({
    method: "POST",
    url: `/connect/${id}/revoke`,
    remoteAddress,
    headers: { "content-type": "application/json" },
    payload: JSON.stringify(body),
  });
}

const deauthorizations = () => revocations.seen.filter((seen) => seen.path === "/oauth/deauthorize");

describe("Stripe disconnect proves the token (item 3)", () => {
  it("any string as the token disconnects no account, with one answer for connected and unknown accounts; only the bundle the broker sealed for that account disconnects it", async () => {
    const bundle = await connectStripe();
    const account = bundle.fields?.["stripe_user_id"] as string;
    expect(account).toBe("acct_1032D82eZvKYlo2C");
    expect(bundle.revoke_proof).toMatch(/^rp1\.[A-Za-z0-9_-]{43}$/);
    revocations.live.add(account);
    revocations.live.add("acct_1SomeoneElse");
    const app = broker({});

    // The attack: a bare id, any token. Nothing reaches Stripe, and the answers are byte for byte the same.
    const connected = await revoke(app, "stripe", { token: "anything", stripe_user_id: account });
    const unknown = await revoke(app, "stripe", { token: "anything", stripe_user_id: "acct_1NeverConnected" });
    expect([connected.statusCode, connected.json().error.code]).toEqual([400, "revocation_not_proven"]);
    expect([unknown.statusCode, unknown.body]).toEqual([connected.statusCode, connected.body]);
    // A forged proof, a proof of this token for another account, another account's proof: all the same refusal.
    for (const body of [
      { token: "anything", stripe_user_id: account, revoke_proof: "rp1.AAAA" },
      { token: bundle.access_token, stripe_user_id: "acct_1SomeoneElse", revoke_proof: bundle.revoke_proof },
      { token: "anything", stripe_user_id: account, revoke_proof: bundle.revoke_proof },
      { token: bundle.access_token, stripe_user_id: account, revoke_proof: proofFor(randomKey(), "stripe", bundle.access_token, account) },
    ]) {
      const answer = await revoke(app, "stripe", body);
      expect([answer.statusCode, answer.body]).toEqual([connected.statusCode, connected.body]);
    }
    expect(deauthorizations()).toHaveLength(0);

    // The member, with the bundle the broker sealed, disconnects its own account (on another instance: nothing is stored).
    const answer = await revoke(app, "stripe", { token: bundle.access_token, stripe_user_id: account, revoke_proof: bundle.revoke_proof });
    expect(answer.json()).toEqual({ revoked: true });
    expect(deauthorizations().map((seen) => new URLSearchParams(seen.body).get("stripe_user_id"))).toEqual([account]);
    expect(revocations.live.has("acct_1SomeoneElse")).toBe(true);
  });
});

describe("junk cannot spend a member's revocation budget, nor the client secret unboundedly (item 2)", () => {
  it("600 junk tokens from 60 addresses reach the provider at most the anonymous budget's times; a member's proven revocation is still made", async () => {
    const app = broker({});
    const before = revocations.seen.length;
    const refused: number[] = [];
    for (let address = 1; address <= 60; address += 1) {
      for (let attempt = 0; attempt < 10; attempt += 1) {
        const answer = await revoke(app, "github", { token: `gho_junk-${address}-${attempt}` }, `198.51.100.${address}`);
        if (answer.statusCode === 429) refused.push(address);
      }
    }
    // The anonymous budget (120 a minute) is all the client secret was used for.
    expect(revocations.seen.length - before).toBe(120);
    expect(refused).toHaveLength(480);

    revocations.live.add("gho_member-token");
    const proven = { token: "gho_member-token", revoke_proof: proofFor(STATE_KEY, "github", "gho_member-token") };
    const answer = await revoke(app, "github", proven, "198.51.100.1");
    expect(answer.json()).toEqual({ revoked: true });
    // A proven token has its own bound: three calls a minute, then 429.
    for (let again = 0; again < 2; again += 1) expect((await revoke(app, "github", proven)).statusCode).toBe(400);
    expect((await revoke(app, "github", proven)).statusCode).toBe(429);
  }, 60_000);
});
