import { createHash } from "node:crypto";
import { generateBotKeys, openSealed, ready, secretboxSeal } from "@eleven-integrations/grants";
import type { FastifyInstance } from "fastify";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { mockTokenEndpoint } from "../__fixtures__/mock-token-endpoint.js";
import { testApp } from "../__fixtures__/test-app.js";
import { AUTH_ORIGIN, CLIENT_ID, CLIENT_SECRET, PUBLIC_URL, RETURN_TO, randomKey } from "../__fixtures__/test-registry.js";
import type { BrokerConfig } from "../config/config.js";
import { withoutProofs } from "../__fixtures__/token-proofs.js";

let app: FastifyInstance;
let client: { publicKey: string; secretKey: string };
beforeAll(async () => {
  await ready();
  client = generateBotKeys();
});
afterEach(async () => {
  await app.close();
});

/** A broker whose token endpoint is scripted, and a flow started on it: the provider's `state`. */
async function startFlow(overrides: Partial<BrokerConfig> = {}) {
  const endpoint = mockTokenEndpoint();
  const built = testApp({ dispatcher: endpoint.agent, ...overrides });
  app = built.app;
  const start = await app.inject({ method: "GET", url: `/connect/testauth/start?client_key=${client.publicKey}&return_to=${encodeURIComponent(RETURN_TO)}` });
  const authorize = new URL(start.headers.location as string).searchParams;
  cookie = String(start.headers["set-cookie"]).split(";")[0] as string;
  return { ...endpoint, ...built, state: authorize.get("state") as string, challenge: authorize.get("code_challenge") as string };
}

/** The binding cookie of the browser that started the last flow. */
let cookie = "";

function callback(query: Record<string, string>, accept = "application/json", withCookie: string | undefined = cookie) {
  const headers: Record<string, string> = { accept };
  if (withCookie !== undefined && withCookie !== "") headers.cookie = withCookie;
  return app.inject({ method: "GET", url: `/connect/callback?${new URLSearchParams(query)}`, headers });
}

/** The `#error=` code a callback redirected to, or a failure naming what came instead. */
function errorCode(response: { statusCode: number; headers: Record<string, unknown> }): string {
  expect(response.statusCode).toBe(302);
  const location = response.headers.location as string;
  expect(location.startsWith(`${RETURN_TO}#error=`)).toBe(true);
  return location.slice(`${RETURN_TO}#error=`.length);
}

const TOKENS = { access_token: "at-123", token_type: "Bearer", expires_in: 3600, refresh_token: "rt-456", scope: "openid" };

describe("GET /connect/callback", () => {
  it("exchanges the code with HTTP Basic and the PKCE verifier, and redirects with the tokens sealed to the client", async () => {
    const flow = await startFlow();
    flow.answer({ status: 200, body: TOKENS });
    const response = await callback({ code: "the-code", state: flow.state, iss: AUTH_ORIGIN });
    expect(response.statusCode).toBe(302);
    expect(response.headers["cache-control"]).toBe("no-store");
    expect(response.headers["referrer-policy"]).toBe("no-referrer");

    expect(flow.requests).toHaveLength(1);
    const sent = flow.requests[0];
    // RFC 6749 2.3.1: id and secret form-encoded, then Basic.
    const [scheme, credentials] = (sent?.headers.authorization ?? "").split(" ");
    expect(scheme).toBe("Basic");
    expect(
      Buffer.from(credentials ?? "", "base64")
        .toString()
        .split(":")
        .map(decodeURIComponent),
    ).toEqual([CLIENT_ID, CLIENT_SECRET]);
    expect(sent?.body.get("grant_type")).toBe("authorization_code");
    expect(sent?.body.get("code")).toBe("the-code");
    expect(sent?.body.get("redirect_uri")).toBe(`${PUBLIC_URL}/connect/callback`);
    expect(sent?.body.has("client_secret")).toBe(false);
    const verifier = sent?.body.get("code_verifier") as string;
    expect(createHash("sha256").update(verifier).digest("base64url")).toBe(flow.challenge);

    const location = response.headers.location as string;
    expect(location.startsWith(`${RETURN_TO}#tokens=`)).toBe(true);
    const sealed = decodeURIComponent(location.slice(`${RETURN_TO}#tokens=`.length));
    const bundle = JSON.parse(new TextDecoder().decode(openSealed(sealed, client)));
    expect(withoutProofs(bundle)).toEqual({
      v: 1,
      integration: "testauth",
      access_token: "at-123",
      token_type: "bearer",
      expires_in: 3600,
      refresh_token: "rt-456",
      scope: "openid",
    });
    // Only the client that started the flow can open it.
    expect(() => openSealed(sealed, generateBotKeys())).toThrow();
  });

  it("leaves out what the provider did not send", async () => {
    const flow = await startFlow();
    flow.answer({ status: 200, body: { access_token: "only", token_type: "bearer" } });
    const response = await callback({ code: "c", state: flow.state }, "application/json", cookie);
    const sealed = decodeURIComponent((response.headers.location as string).split("#tokens=")[1] as string);
    expect(withoutProofs(JSON.parse(new TextDecoder().decode(openSealed(sealed, client))))).toEqual({
      v: 1,
      integration: "testauth",
      access_token: "only",
      token_type: "bearer",
    });
  });

  it("refuses a missing, repeated, garbage or foreign state with 400 and makes no token request", async () => {
    const flow = await startFlow();
    const foreign = secretboxSeal(JSON.stringify({ v: 1 }), randomKey());
    const sameKeyWrongShape = secretboxSeal(JSON.stringify({ v: 1, typ: "something-else" }), flow.config.stateKey);
    const cases = [
      { query: { code: "c" }, code: "missing_state" },
      { query: { code: "c", state: "not-a-state" }, code: "invalid_state" },
      { query: { code: "c", state: foreign }, code: "invalid_state" },
      { query: { code: "c", state: sameKeyWrongShape }, code: "invalid_state" },
      { query: { code: "c", state: "A".repeat(5000) }, code: "invalid_state" },
    ];
    for (const { query, code } of cases) {
      const response = await callback(query);
      expect(response.statusCode).toBe(400);
      expect(response.json().error.code).toBe(code);
      expect(response.headers.location).toBeUndefined();
      expect(response.headers["cache-control"]).toBe("no-store");
    }
    const repeated = await app.inject({ method: "GET", url: `/connect/callback?code=c&state=${flow.state}&state=${flow.state}` });
    expect(repeated.json().error.code).toBe("missing_state");
    expect(flow.requests).toHaveLength(0);
  });

  it("tells an expired state apart, only once it has authenticated", async () => {
    let now = 1_800_000_000;
    const flow = await startFlow({ now: () => now });
    now += 601;
    const response = await callback({ code: "c", state: flow.state });
    expect([response.statusCode, response.json().error.code]).toEqual([400, "state_expired"]);
    expect(flow.requests).toHaveLength(0);
  });

  it("sends an iss other than the origin of authorize_url back as invalid_callback, with no token request", async () => {
    const flow = await startFlow();
    for (const iss of ["https://evil.example.test", `${AUTH_ORIGIN}/`, "https://AUTH.example.test"]) {
      expect(errorCode(await callback({ code: "c", state: flow.state, iss }))).toBe("invalid_callback");
    }
    // A mix-up: a wrong iss with an error is invalid_callback too; the provider's error is not forwarded.
    expect(errorCode(await callback({ error: "access_denied", state: flow.state, iss: "https://evil.example.test" }))).toBe("invalid_callback");
    expect(flow.requests).toHaveLength(0);
  });

  it("sends a provider error back to return_to as one of the four codes", async () => {
    const flow = await startFlow();
    const denied = await callback({ error: "access_denied", error_description: "no <b>", state: flow.state, iss: AUTH_ORIGIN });
    expect(denied.statusCode).toBe(302);
    expect(denied.headers.location).toBe(`${RETURN_TO}#error=access_denied`);
    expect(denied.headers["cache-control"]).toBe("no-store");
    expect(errorCode(await callback({ error: "temporarily_unavailable", state: flow.state }))).toBe("provider_unavailable");
    expect(errorCode(await callback({ error: "server_error", state: flow.state }))).toBe("provider_unavailable");
    expect(errorCode(await callback({ error: "invalid_scope", state: flow.state }))).toBe("invalid_callback");
    expect(errorCode(await callback({ error: 'x"><script>', state: flow.state }))).toBe("invalid_callback");
    expect(flow.requests).toHaveLength(0);
  });

  it("sends a callback with neither code nor error back as invalid_callback", async () => {
    const flow = await startFlow();
    expect(errorCode(await callback({ state: flow.state }))).toBe("invalid_callback");
    expect(errorCode(await callback({ state: flow.state, code: "" }))).toBe("invalid_callback");
    expect(flow.requests).toHaveLength(0);
  });

  it("refuses a callback from a browser without the flow's binding cookie: 400, no redirect, no token request", async () => {
    const flow = await startFlow();
    flow.answer({ status: 200, body: TOKENS });
    const otherBrowser = (
      await app.inject({ method: "GET", url: `/connect/testauth/start?client_key=${client.publicKey}&return_to=${encodeURIComponent(RETURN_TO)}` })
    ).headers["set-cookie"];
    const foreignCookie = String(otherBrowser).split(";")[0] as string;
    expect(foreignCookie).not.toBe(cookie);
    for (const sent of [
      "",
      foreignCookie,
      `${cookie.slice(0, -1)}${cookie.endsWith("A") ? "B" : "A"}`,
      `${cookie}; ${foreignCookie}`,
      cookie.replace("__Host-", ""),
    ]) {
      const response = await callback({ code: "c", state: flow.state }, "application/json", sent);
      expect([response.statusCode, response.json().error.code]).toEqual([400, "browser_mismatch"]);
      expect(response.headers.location).toBeUndefined();
    }
    expect(flow.requests).toHaveLength(0);
    // The starting browser still finishes it.
    expect((await callback({ code: "c", state: flow.state })).headers.location).toMatch(/#tokens=/);
  });

  it("goes back with token_exchange_failed when the provider refuses the code, provider_unavailable when it fails, times out or refuses the broker's credentials", async () => {
    const cases = [
      { answer: { status: 400, body: { error: "invalid_grant" } }, expected: "token_exchange_failed" },
      { answer: { status: 500, body: { error: "server_error" } }, expected: "provider_unavailable" },
      { answer: { status: 503, body: "<html>down</html>", headers: { "content-type": "text/html" } }, expected: "provider_unavailable" },
      { answer: { status: 401, body: { error: "invalid_client" } }, expected: "provider_unavailable" },
      { answer: { status: 200, body: { token_type: "bearer" } }, expected: "provider_unavailable" },
      { answer: { status: 200, body: { access_token: "a", token_type: "mac" } }, expected: "provider_unavailable" },
      { answer: { status: 200, body: "not json" }, expected: "provider_unavailable" },
      { answer: { status: 200, body: TOKENS, delayMs: 500 }, expected: "provider_unavailable" },
    ];
    for (const { answer, expected } of cases) {
      const flow = await startFlow({ outboundTimeoutMs: 100 });
      flow.answer(answer);
      expect(errorCode(await callback({ code: "c", state: flow.state }))).toBe(expected);
      expect(flow.requests).toHaveLength(1);
      await app.close();
    }
    app = testApp().app;
  });

  it("never follows a redirect from the token endpoint", async () => {
    const flow = await startFlow();
    flow.answer({ status: 302, body: "", headers: { location: "https://elsewhere.example.test/token" } });
    expect(errorCode(await callback({ code: "c", state: flow.state }))).toBe("provider_unavailable");
    expect(flow.requests).toHaveLength(1);
  });

  it("has no HEAD twin, so a link checker cannot redeem the code", async () => {
    const flow = await startFlow();
    flow.answer({ status: 200, body: TOKENS });
    const response = await app.inject({ method: "HEAD", url: `/connect/callback?code=c&state=${flow.state}` });
    expect(response.statusCode).toBe(404);
    expect(response.headers.location).toBeUndefined();
    expect(flow.requests).toHaveLength(0);
  });

  it("refuses a flow whose return_to was removed from the configuration since it started", async () => {
    const flow = await startFlow();
    await app.close();
    app = testApp({ stateKey: flow.config.stateKey, allowedReturnTo: ["https://other.example.test/"], dispatcher: flow.agent }).app;
    const response = await callback({ code: "c", state: flow.state });
    expect([response.statusCode, response.json().error.code]).toEqual([400, "return_to_not_allowed"]);
    expect(response.headers.location).toBeUndefined();
    expect(flow.requests).toHaveLength(0);
  });

  it("goes back with provider_unavailable for a flow whose integration lost its app since it started", async () => {
    const flow = await startFlow();
    await app.close();
    app = testApp({ stateKey: flow.config.stateKey, oauthApps: {}, dispatcher: flow.agent }).app;
    expect(errorCode(await callback({ code: "c", state: flow.state }))).toBe("provider_unavailable");
    expect(flow.requests).toHaveLength(0);
  });
});
