import type { AddressInfo } from "node:net";
import { generateBotKeys, openSealed, ready } from "@eleven-integrations/grants";
import type { FastifyInstance } from "fastify";
import { request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../app.js";
import { Browser } from "../__fixtures__/browser.js";
import { ACCOUNT_ID, startAuthorizationServer, type TestAuthorizationServer } from "../__fixtures__/test-authorization-server.js";
import { AUTH_ORIGIN, CLIENT_ID, CLIENT_SECRET, PUBLIC_URL, RETURN_TO, randomKey, testRegistry } from "../__fixtures__/test-registry.js";
import { openState } from "./oauth-state.js";
import type { TokenBundle } from "./token-bundle.js";

const CALLBACK = `${PUBLIC_URL}/connect/callback`;
const keyA = randomKey();
const keyB = randomKey();
let server: TestAuthorizationServer;
let clockOffset = 0;
const logs: string[] = [];
/** Every secret value the flows produced: none may appear in a log line. */
const secrets = new Set<string>([CLIENT_SECRET, keyA, keyB]);
const brokers: FastifyInstance[] = [];
let brokerA: string;
let brokerB: string;
let brokerRotated: string;
let client: { publicKey: string; secretKey: string };

async function startBroker(stateKey: string, oldStateKeys: string[] = []): Promise<string> {
  const app = buildApp({
    registry: testRegistry(),
    publicUrl: PUBLIC_URL,
    stateKey,
    oldStateKeys,
    oauthApps: { testauth: { clientId: CLIENT_ID, clientSecret: CLIENT_SECRET } },
    allowedReturnTo: [RETURN_TO],
    dispatcher: server.dispatcher,
    logger: { level: "trace", stream: { write: (line: string) => void logs.push(line) } },
    now: () => Math.floor(Date.now() / 1000) + clockOffset,
  });
  brokers.push(app);
  await app.listen({ host: "127.0.0.1", port: 0 });
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  await ready();
  client = generateBotKeys();
  server = await startAuthorizationServer();
  brokerA = await startBroker(keyA);
  brokerB = await startBroker(keyB);
  brokerRotated = await startBroker(randomKey(), [keyA]);
}, 30_000);

afterAll(async () => {
  for (const app of brokers) await app.close();
  await server?.close();
});

function startUrl(broker: string, returnTo = RETURN_TO): string {
  return `${broker}/connect/testauth/start?client_key=${client.publicKey}&return_to=${encodeURIComponent(returnTo)}`;
}

/** The member's browser: it starts flows and receives the provider's redirects, so it holds the binding cookie. */
let member = new Browser();

/** start -> the provider's authorize endpoint -> its interaction -> the redirect to the broker's callback (not followed). */
async function authorize(broker: string, browser: Browser = member): Promise<URL> {
  const start = await browser.get(startUrl(broker));
  expect(start.status).toBe(302);
  const callback = new URL(await new Browser(server.dispatcher).followUntil(start.location as string, CALLBACK));
  for (const name of ["code", "state"]) {
    const value = callback.searchParams.get(name);
    if (value !== null) secrets.add(value);
  }
  const state = callback.searchParams.get("state");
  if (state !== null) {
    const opened = openState(state, [keyA, keyB], Math.floor(Date.now() / 1000));
    if (opened.ok) secrets.add(opened.state.verifier);
  }
  return callback;
}

/** The provider's redirect delivered to a broker by a browser (the member's, unless another is named). */
function deliver(broker: string, callback: URL, browser: Browser = member) {
  return browser.get(`${broker}${callback.pathname}${callback.search}`, { accept: "text/html" });
}

function openTokens(sealed: string): TokenBundle {
  const bundle = JSON.parse(new TextDecoder().decode(openSealed(sealed, client))) as TokenBundle;
  secrets.add(bundle.access_token);
  if (bundle.refresh_token !== undefined) secrets.add(bundle.refresh_token);
  return bundle;
}

function fragment(location: string | undefined, name: string): string {
  const url = new URL(location as string);
  expect(url.href.startsWith(`${RETURN_TO}#`)).toBe(true);
  return decodeURIComponent(new URLSearchParams(url.hash.slice(1)).get(name) as string);
}

async function userinfo(accessToken: string) {
  const response = await request(`${AUTH_ORIGIN}/me`, { dispatcher: server.dispatcher, headers: { authorization: `Bearer ${accessToken}` } });
  return { status: response.statusCode, body: (await response.body.json()) as { sub?: string } };
}

/** Refreshes as the member client holding `bundle`: its refresh token and the broker's binding of it to the client's key. */
async function refresh(broker: string, bundle: TokenBundle) {
  const response = await request(`${broker}/connect/testauth/refresh`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ refresh_token: bundle.refresh_token, client_key: client.publicKey, refresh_binding: bundle.refresh_binding }),
  });
  return { status: response.statusCode, headers: response.headers, body: (await response.body.json()) as { tokens?: string; error?: { code: string } } };
}

describe("OAuth connect against a real authorization server (oidc-provider over TLS)", () => {
  it("connects: start, consent, callback, sealed tokens that call userinfo, then a refresh that rotates", async () => {
    member = new Browser();
    const start = await member.get(startUrl(brokerA));
    expect(start.headers["set-cookie"]).toMatch(/^__Host-eleven-connect=[A-Za-z0-9_-]{43}; Max-Age=600; Path=\/; HttpOnly; Secure; SameSite=Lax$/);
    const authorizeUrl = new URL(start.location as string);
    expect(authorizeUrl.origin + authorizeUrl.pathname).toBe(`${AUTH_ORIGIN}/auth`);
    expect(authorizeUrl.searchParams.get("code_challenge_method")).toBe("S256");
    expect(start.headers["cache-control"]).toBe("no-store");

    const callback = await authorize(brokerA);
    expect(callback.searchParams.get("iss")).toBe(AUTH_ORIGIN);
    const before = server.tokenRequests();
    const connected = await deliver(brokerA, callback);
    expect(connected.status).toBe(302);
    expect(connected.headers["cache-control"]).toBe("no-store");
    expect(connected.headers["referrer-policy"]).toBe("no-referrer");
    expect(server.tokenRequests()).toBe(before + 1);

    const tokens = openTokens(fragment(connected.location, "tokens"));
    expect(tokens).toMatchObject({ v: 1, integration: "testauth", token_type: "bearer" });
    expect(tokens.scope).toContain("openid");
    expect(typeof tokens.expires_in).toBe("number");
    expect(tokens.refresh_token).toEqual(expect.any(String));
    expect(await userinfo(tokens.access_token)).toEqual({ status: 200, body: expect.objectContaining({ sub: ACCOUNT_ID }) });

    const refreshed = await refresh(brokerA, tokens);
    expect(refreshed.status).toBe(200);
    expect(refreshed.headers["cache-control"]).toBe("no-store");
    const rotated = openTokens(refreshed.body.tokens as string);
    expect(rotated.integration).toBe("testauth");
    expect(rotated.refresh_token).toEqual(expect.any(String));
    expect(rotated.refresh_token).not.toBe(tokens.refresh_token);
    expect(rotated.access_token).not.toBe(tokens.access_token);
    expect((await userinfo(rotated.access_token)).body.sub).toBe(ACCOUNT_ID);

    // The rotated-out refresh token is refused by the provider: a 400, not a 502.
    const reused = await refresh(brokerA, tokens);
    expect(reused.status).toBe(400);
    expect(reused.body.error?.code).toBe("refresh_failed");
  });

  it("the provider itself requires PKCE: without the broker's challenge the flow is refused", async () => {
    const start = await new Browser().get(startUrl(brokerA));
    const withoutPkce = new URL(start.location as string);
    withoutPkce.searchParams.delete("code_challenge");
    withoutPkce.searchParams.delete("code_challenge_method");
    const refused = await new Browser(server.dispatcher).get(withoutPkce.href);
    expect(new URL(refused.location as string).searchParams.get("error")).toBe("invalid_request");
  });

  it("any instance holding the key (here as an older, rotated key) finishes a flow another started", async () => {
    const callback = await authorize(brokerA);
    const finished = await deliver(brokerRotated, callback);
    expect(finished.status).toBe(302);
    expect(openTokens(fragment(finished.location, "tokens")).integration).toBe("testauth");
  });

  it("a callback whose state was tampered with is a 400 page, with no redirect and no token request", async () => {
    const callback = await authorize(brokerA);
    const state = callback.searchParams.get("state") as string;
    const middle = Math.floor(state.length / 2);
    callback.searchParams.set("state", `${state.slice(0, middle)}${state[middle] === "A" ? "B" : "A"}${state.slice(middle + 1)}`);
    const before = server.tokenRequests();
    const response = await deliver(brokerA, callback);
    expect(response.status).toBe(400);
    expect(response.location).toBeUndefined();
    expect(response.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(response.body).toContain("invalid_state");
    expect(server.tokenRequests()).toBe(before);
  });

  it("an expired state is a 400 state_expired, with no token request", async () => {
    const callback = await authorize(brokerA);
    const before = server.tokenRequests();
    clockOffset = 601;
    try {
      const response = await deliver(brokerA, callback);
      expect(response.status).toBe(400);
      expect(response.location).toBeUndefined();
      expect(response.body).toContain("state_expired");
    } finally {
      clockOffset = 0;
    }
    expect(server.tokenRequests()).toBe(before);
  });

  it("a state sealed by another broker's key is a 400, with no token request", async () => {
    const callback = await authorize(brokerB);
    const before = server.tokenRequests();
    const response = await deliver(brokerA, callback);
    expect(response.status).toBe(400);
    expect(response.location).toBeUndefined();
    expect(response.body).toContain("invalid_state");
    expect(server.tokenRequests()).toBe(before);
  });

  it("a return_to that is not exactly an allowed one is refused at start, before the provider is involved", async () => {
    for (const returnTo of ["https://evil.example.test/connected", `${RETURN_TO}/`, `${RETURN_TO}?next=1`, RETURN_TO.toUpperCase()]) {
      const response = await request(startUrl(brokerA, returnTo));
      expect(response.statusCode).toBe(400);
      expect(response.headers.location).toBeUndefined();
      expect(((await response.body.json()) as { error: { code: string } }).error.code).toBe("return_to_not_allowed");
    }
  });

  it("a replayed callback is refused: the provider refuses the used code, the broker sends the member back with token_exchange_failed", async () => {
    const callback = await authorize(brokerA);
    const before = server.tokenRequests();
    const first = await deliver(brokerA, callback);
    expect(first.status).toBe(302);
    const replay = await deliver(brokerA, callback);
    expect(replay.status).toBe(302);
    expect(replay.location).toBe(`${RETURN_TO}#error=token_exchange_failed`);
    // One exchange each: the replay cannot be told apart without storing state, and the provider refuses the code.
    expect(server.tokenRequests()).toBe(before + 2);
  });

  it("the provider answering error=access_denied goes back to return_to#error=access_denied, with no token request", async () => {
    server.setOutcome("deny");
    try {
      const callback = await authorize(brokerA);
      expect(callback.searchParams.get("error")).toBe("access_denied");
      const before = server.tokenRequests();
      const response = await deliver(brokerA, callback);
      expect(response.status).toBe(302);
      expect(response.location).toBe(`${RETURN_TO}#error=access_denied`);
      expect(response.headers["cache-control"]).toBe("no-store");
      expect(server.tokenRequests()).toBe(before);
    } finally {
      server.setOutcome("approve");
    }
  });

  it("login CSRF: a flow an attacker started and authorized with their own account, completed in the victim's browser, yields nothing", async () => {
    // The attacker starts the flow in their own browser, for the victim's client key, and consents with their own account...
    const attacker = new Browser();
    const callback = await authorize(brokerA, attacker);
    // ...then makes the victim's browser (which holds its own binding cookie from an earlier flow) load the callback.
    const victim = new Browser();
    expect((await victim.get(startUrl(brokerA))).status).toBe(302);
    const before = server.tokenRequests();
    for (const browser of [victim, new Browser()]) {
      const response = await deliver(brokerA, callback, browser);
      expect(response.status).toBe(400);
      expect(response.location).toBeUndefined();
      expect(response.body).toContain("browser_mismatch");
    }
    // No token request was made: the attacker's code is still unredeemed, and nothing reached the victim's client.
    expect(server.tokenRequests()).toBe(before);
    // The browser that started it still finishes it.
    expect(openTokens(fragment((await deliver(brokerA, callback, attacker)).location, "tokens")).integration).toBe("testauth");
  });

  it("an iss other than the authorization server's is sent back as invalid_callback (RFC 9207), with no token request; an absent iss is accepted", async () => {
    const callback = await authorize(brokerA);
    const before = server.tokenRequests();
    const forged = new URL(callback);
    forged.searchParams.set("iss", "https://evil.example.test");
    const refused = await deliver(brokerA, forged);
    expect(refused.status).toBe(302);
    expect(refused.location).toBe(`${RETURN_TO}#error=invalid_callback`);
    expect(server.tokenRequests()).toBe(before);

    callback.searchParams.delete("iss");
    const accepted = await deliver(brokerA, callback);
    expect(accepted.status).toBe(302);
    expect(server.tokenRequests()).toBe(before + 1);
  });

  it("logged every request, and no log line holds a token, code, state, verifier, state key or client secret", () => {
    const text = logs.join("");
    expect(text).toContain('"url":"/connect/callback?…"');
    expect(text).toContain("incoming request");
    expect(secrets.size).toBeGreaterThan(20);
    for (const secret of secrets) expect(text.includes(secret), `a secret of ${secret.length} characters was logged`).toBe(false);
  });
});
