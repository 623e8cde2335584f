import { generateBotKeys, openSealed, ready } from "@eleven-integrations/grants";
import type { FastifyInstance } from "fastify";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { mockTokenEndpoint } from "../__fixtures__/mock-token-endpoint.js";
import { testApp } from "../__fixtures__/test-app.js";
import { CLIENT_ID, CLIENT_SECRET } from "../__fixtures__/test-registry.js";
import type { BrokerConfig } from "../config/config.js";
import { bindingFor, withoutProofs } from "../__fixtures__/token-proofs.js";

let app: FastifyInstance;
let client: { publicKey: string; secretKey: string };
beforeAll(async () => {
  await ready();
  client = generateBotKeys();
});
afterEach(async () => {
  await app.close();
});

let stateKey: string;

function broker(overrides: Partial<BrokerConfig> = {}) {
  const endpoint = mockTokenEndpoint();
  const built = testApp({ dispatcher: endpoint.agent, ...overrides });
  app = built.app;
  stateKey = built.config.stateKey;
  return endpoint;
}

/** Refreshes as the member client holding the bundle does: with the refresh_binding the broker sealed for its key. */
function refresh(body: unknown, options: { id?: string; headers?: Record<string, string> } = {}) {
  return app.inject({
    method: "POST",
    url: `/connect/${options.id ?? "testauth"}/refresh`,
    headers: { "content-type": "application/json", ...options.headers },
    payload: typeof body === "string" ? body : JSON.stringify(bound(body, options.id ?? "testauth")),
  });
}

function bound(body: unknown, integration: string): unknown {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return body;
  const { refresh_token: refreshToken, client_key: clientKey } = body as Record<string, unknown>;
  if (typeof refreshToken !== "string" || typeof clientKey !== "string" || "refresh_binding" in body) return body;
  return { ...body, refresh_binding: bindingFor(stateKey, integration, refreshToken, clientKey) };
}

function opened(sealed: string) {
  return JSON.parse(new TextDecoder().decode(openSealed(sealed, client)));
}

describe("POST /connect/:id/refresh", () => {
  it("refreshes through the token endpoint and answers the new tokens sealed to the client, never cached", async () => {
    const endpoint = broker();
    endpoint.answer({ status: 200, body: { access_token: "at-2", token_type: "Bearer", expires_in: 60, refresh_token: "rt-2" } });
    const response = await refresh({ refresh_token: "rt-1", client_key: client.publicKey });
    expect(response.statusCode).toBe(200);
    expect(response.headers["cache-control"]).toBe("no-store");
    expect(Object.keys(response.json())).toEqual(["tokens"]);
    expect(withoutProofs(opened(response.json().tokens))).toEqual({
      v: 1,
      integration: "testauth",
      access_token: "at-2",
      token_type: "bearer",
      expires_in: 60,
      refresh_token: "rt-2",
    });
    const sent = endpoint.requests[0];
    expect(sent?.body.get("grant_type")).toBe("refresh_token");
    expect(sent?.body.get("refresh_token")).toBe("rt-1");
    const credentials = Buffer.from((sent?.headers.authorization ?? "").replace("Basic ", ""), "base64").toString();
    expect(credentials.split(":").map(decodeURIComponent)).toEqual([CLIENT_ID, CLIENT_SECRET]);
  });

  it("keeps the old refresh token when the provider does not send a new one", async () => {
    const endpoint = broker();
    endpoint.answer({ status: 200, body: { access_token: "at-2", token_type: "bearer" } });
    const response = await refresh({ refresh_token: "rt-keep", client_key: client.publicKey });
    expect(opened(response.json().tokens).refresh_token).toBe("rt-keep");
  });

  it("checks the body and the client key before calling the provider", async () => {
    const endpoint = broker();
    const zeros = Buffer.alloc(32).toString("base64url");
    const cases: [unknown, number, string][] = [
      [{ refresh_token: "rt", client_key: "short" }, 400, "invalid_client_key"],
      [{ refresh_token: "rt", client_key: zeros }, 400, "invalid_client_key"],
      [{ refresh_token: "rt" }, 400, "invalid_body"],
      [{ refresh_token: "", client_key: client.publicKey }, 400, "invalid_body"],
      [{ refresh_token: 42, client_key: client.publicKey }, 400, "invalid_body"],
      [{ refresh_token: "rt", client_key: client.publicKey, extra: true }, 400, "invalid_body"],
      [["rt", client.publicKey], 400, "invalid_body"],
      ['{"refresh_token": "rt-in-a-broken-body', 400, "bad_request"],
      [{ refresh_token: "x".repeat(40_000), client_key: client.publicKey }, 413, "payload_too_large"],
    ];
    for (const [body, status, code] of cases) {
      const response = await refresh(body);
      expect([response.statusCode, response.json().error.code]).toEqual([status, code]);
      // The refused request is never echoed back.
      expect(response.body).not.toContain("rt-in-a-broken-body");
    }
    const text = await app.inject({ method: "POST", url: "/connect/testauth/refresh", headers: { "content-type": "text/plain" }, payload: "rt" });
    expect([text.statusCode, text.json().error.code]).toEqual([415, "unsupported_media_type"]);
    const form = await app.inject({
      method: "POST",
      url: "/connect/testauth/refresh",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: "refresh_token=rt",
    });
    expect(form.statusCode).toBe(415);
    expect(endpoint.requests).toHaveLength(0);
  });

  it("answers 404, 400 and 409 for an unknown, a PAT-only and an app-less integration", async () => {
    const endpoint = broker();
    const body = { refresh_token: "rt", client_key: client.publicKey };
    expect((await refresh(body, { id: "nope" })).statusCode).toBe(404);
    expect((await refresh(body, { id: "patonly" })).json().error.code).toBe("oauth_not_supported");
    expect((await refresh(body, { id: "noapp" })).statusCode).toBe(409);
    expect(endpoint.requests).toHaveLength(0);
  });

  it("answers 400 refresh_failed when the provider refuses, 502 when it fails", async () => {
    const cases = [
      { answer: { status: 400, body: { error: "invalid_grant", error_description: "rt-secret is revoked" } }, expected: [400, "refresh_failed"] },
      { answer: { status: 502, body: "bad gateway", headers: { "content-type": "text/plain" } }, expected: [502, "provider_error"] },
      { answer: { status: 400, body: { error: "invalid_client" } }, expected: [502, "provider_error"] },
      { answer: { status: 200, body: { access_token: "at", token_type: "mac" } }, expected: [502, "provider_error"] },
    ];
    for (const { answer, expected } of cases) {
      const endpoint = broker();
      endpoint.answer(answer);
      const response = await refresh({ refresh_token: "rt", client_key: client.publicKey });
      expect([response.statusCode, response.json().error.code]).toEqual(expected);
      expect(response.body).not.toContain("rt-secret");
      expect(response.headers["cache-control"]).toBe("no-store");
      await app.close();
    }
    app = testApp().app;
  });

  it("lets the web origins of the allowed return_to values call it from a browser, and no other", async () => {
    const endpoint = broker();
    const preflight = await app.inject({
      method: "OPTIONS",
      url: "/connect/testauth/refresh",
      headers: { origin: "https://app.example.test", "access-control-request-method": "POST" },
    });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers["access-control-allow-origin"]).toBe("https://app.example.test");
    expect(preflight.headers["access-control-allow-headers"]).toBe("content-type");
    const foreign = await app.inject({ method: "OPTIONS", url: "/connect/testauth/refresh", headers: { origin: "https://evil.example.test" } });
    expect(foreign.headers["access-control-allow-origin"]).toBeUndefined();

    endpoint.answer({ status: 200, body: { access_token: "at", token_type: "bearer" } });
    const allowed = await refresh({ refresh_token: "rt", client_key: client.publicKey }, { headers: { origin: "https://app.example.test" } });
    expect(allowed.headers["access-control-allow-origin"]).toBe("https://app.example.test");
    expect(allowed.headers.vary).toContain("Origin");
  });
});
