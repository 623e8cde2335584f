import { createHash } from "node:crypto";
import { generateBotKeys, ready } from "@eleven-integrations/grants";
import type { FastifyInstance } from "fastify";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { testApp } from "../__fixtures__/test-app.js";
import { AUTH_ORIGIN, CLIENT_ID, PUBLIC_URL, RETURN_TO, oauthManifest, testRegistry } from "../__fixtures__/test-registry.js";
import { openState, STATE_TTL_SECONDS } from "./oauth-state.js";

let app: FastifyInstance;
let clientKey: string;
beforeAll(async () => {
  await ready();
  clientKey = generateBotKeys().publicKey;
});
afterEach(async () => {
  await app.close();
});

function url(id: string, query: Record<string, string | string[]>): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) for (const item of [value].flat()) search.append(name, item);
  return `/connect/${id}/start?${search}`;
}

describe("GET /connect/:id/start", () => {
  it("redirects to authorize_url with PKCE S256, the scopes, the redirect URI and a sealed state", async () => {
    const built = testApp({ now: () => 1_800_000_000 });
    app = built.app;
    const response = await app.inject({ method: "GET", url: url("testauth", { client_key: clientKey, return_to: RETURN_TO }) });
    expect(response.statusCode).toBe(302);
    expect(response.headers["cache-control"]).toBe("no-store");
    expect(response.headers["referrer-policy"]).toBe("no-referrer");
    const location = new URL(response.headers.location as string);
    expect(`${location.origin}${location.pathname}`).toBe(`${AUTH_ORIGIN}/auth`);
    const parameters = location.searchParams;
    expect(parameters.get("response_type")).toBe("code");
    expect(parameters.get("client_id")).toBe(CLIENT_ID);
    expect(parameters.get("redirect_uri")).toBe(`${PUBLIC_URL}/connect/callback`);
    expect(parameters.get("scope")).toBe("openid");
    expect(parameters.get("code_challenge_method")).toBe("S256");
    expect(response.headers.location).not.toContain("client_secret");

    const opened = openState(parameters.get("state") as string, [built.config.stateKey], 1_800_000_000);
    expect(opened.ok).toBe(true);
    if (!opened.ok) return;
    expect(opened.state).toMatchObject({ integration: "testauth", clientKey, returnTo: RETURN_TO, exp: 1_800_000_000 + STATE_TTL_SECONDS });
    const challenge = createHash("sha256").update(opened.state.verifier).digest("base64url");
    expect(parameters.get("code_challenge")).toBe(challenge);
    expect(opened.state.verifier).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it("uses a fresh verifier and state for every flow", async () => {
    app = testApp().app;
    const request = { method: "GET" as const, url: url("testauth", { client_key: clientKey, return_to: RETURN_TO }) };
    const [first, second] = [await app.inject(request), await app.inject(request)];
    const parameters = (response: typeof first) => new URL(response.headers.location as string).searchParams;
    expect(parameters(first).get("state")).not.toBe(parameters(second).get("state"));
    expect(parameters(first).get("code_challenge")).not.toBe(parameters(second).get("code_challenge"));
  });

  it("keeps a query authorize_url already has, and sends no scope parameter for an empty scope list", async () => {
    const manifest = structuredClone(oauthManifest);
    manifest.auth.oauth.authorize_url = `${AUTH_ORIGIN}/auth?prompt=consent`;
    manifest.auth.oauth.scopes = [];
    app = testApp({ registry: testRegistry([manifest]) }).app;
    const response = await app.inject({ method: "GET", url: url("testauth", { client_key: clientKey, return_to: RETURN_TO }) });
    const parameters = new URL(response.headers.location as string).searchParams;
    expect(parameters.get("prompt")).toBe("consent");
    expect(parameters.has("scope")).toBe(false);
  });

  it("accepts an allowed native-app return_to, showing the confirmation page first (finding 5)", async () => {
    app = testApp().app;
    const response = await app.inject({ method: "GET", url: url("testauth", { client_key: clientKey, return_to: "com.example.app:/connected" }) });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('action="/connect/testauth/start/confirm"');
  });

  it("refuses a client_key that is missing, repeated, malformed, the wrong size or unusable, before anything else", async () => {
    app = testApp().app;
    const zeros = Buffer.alloc(32).toString("base64url");
    const cases: Record<string, string | string[]>[] = [
      { return_to: RETURN_TO },
      { client_key: [clientKey, clientKey], return_to: RETURN_TO },
      { client_key: "not-a-key", return_to: RETURN_TO },
      { client_key: Buffer.alloc(31, 1).toString("base64url"), return_to: RETURN_TO },
      { client_key: `${clientKey.slice(0, 42)}B`, return_to: RETURN_TO },
      { client_key: zeros, return_to: RETURN_TO },
    ];
    for (const query of cases) {
      // An unknown integration, so a 404 would show the key was not checked first.
      const response = await app.inject({ method: "GET", url: url("no-such-integration", query) });
      expect(response.statusCode).toBe(400);
      expect(response.json().error.code).toBe("invalid_client_key");
      expect(response.headers.location).toBeUndefined();
    }
  });

  it("refuses a return_to that is not exactly an allowed one, before looking at the integration", async () => {
    app = testApp().app;
    for (const returnTo of [
      undefined,
      "",
      "https://app.example.test/connected/",
      "https://app.example.test/Connected",
      "https://APP.example.test/connected",
      "https://app.example.test/connected#x",
      "https://evil.example/connected",
    ]) {
      const query: Record<string, string> = { client_key: clientKey };
      if (returnTo !== undefined) query.return_to = returnTo;
      const response = await app.inject({ method: "GET", url: url("no-such-integration", query) });
      expect(response.statusCode).toBe(400);
      expect(response.json().error.code).toBe("return_to_not_allowed");
    }
    const repeated = await app.inject({ method: "GET", url: url("testauth", { client_key: clientKey, return_to: [RETURN_TO, RETURN_TO] }) });
    expect(repeated.statusCode).toBe(400);
  });

  it("answers 404 for an unknown id, 400 for a PAT-only integration, 409 oauth_unavailable without an app", async () => {
    app = testApp().app;
    const query = { client_key: clientKey, return_to: RETURN_TO };
    const unknown = await app.inject({ method: "GET", url: url("nope", query) });
    expect([unknown.statusCode, unknown.json().error.code]).toEqual([404, "unknown_integration"]);
    const pat = await app.inject({ method: "GET", url: url("patonly", query) });
    expect([pat.statusCode, pat.json().error.code]).toEqual([400, "oauth_not_supported"]);
    const noApp = await app.inject({ method: "GET", url: url("noapp", query) });
    expect([noApp.statusCode, noApp.json().error.code]).toEqual([409, "oauth_unavailable"]);
    expect(noApp.headers["cache-control"]).toBe("no-store");
  });

  it("shows a browser an escaped error page", async () => {
    app = testApp().app;
    const response = await app.inject({
      method: "GET",
      url: url("<script>", { client_key: clientKey, return_to: RETURN_TO }),
      headers: { accept: "text/html" },
    });
    expect(response.statusCode).toBe(404);
    expect(response.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(response.body).not.toContain("<script>");
    expect(response.body).toContain("unknown_integration");
  });
});
