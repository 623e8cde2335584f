import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import type { FastifyInstance } from "fastify";
import { testApp } from "../__fixtures__/test-app.js";
import { testRegistry } from "../__fixtures__/test-registry.js";

let app: FastifyInstance;
afterEach(async () => {
  await app.close();
});

function start(overrides: Parameters<typeof testApp>[0] = {}) {
  const built = testApp(overrides);
  app = built.app;
  return built;
}

describe("GET /registry", () => {
  it("serves exactly JSON.stringify of the catalog, each entry the very bytes GET /registry/:id serves", async () => {
    start();
    const response = await app.inject({ method: "GET", url: "/registry" });
    const catalog = response.json();
    expect(response.body).toBe(JSON.stringify(catalog));
    for (const entry of catalog.integrations) {
      const one = await app.inject({ method: "GET", url: `/registry/${entry.id}` });
      expect(one.body).toBe(JSON.stringify(entry));
    }
    expect(response.body).toContain(`"integrations":[${(await app.inject({ method: "GET", url: "/registry/nasty" })).body},`);
  });

  it("serves the catalog with the registry hash, caching headers and one strong ETag", async () => {
    const { config } = start();
    const response = await app.inject({ method: "GET", url: "/registry" });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(response.headers["cache-control"]).toBe("public, max-age=300");
    expect(response.headers.vary).toBe("Accept-Encoding");
    expect(response.headers["content-encoding"]).toBeUndefined();
    const body = response.json();
    expect(body.schema).toBe(1);
    expect(body.hash).toBe(config.registry.hash);
    expect(body.integrations.map((entry: { id: string }) => entry.id)).toEqual(["nasty", "noapp", "patonly", "testauth"]);
    expect(response.headers.etag).toMatch(/^"[0-9a-f]{64}(-[0-9a-f]{12})?"$/);
    expect(response.headers.etag).toContain(config.registry.hash);
  });

  it("marks each OAuth integration with whether the broker has an app, and serves no secret", async () => {
    start();
    const response = await app.inject({ method: "GET", url: "/registry" });
    const byId = Object.fromEntries(response.json().integrations.map((entry: { id: string }) => [entry.id, entry]));
    expect(byId.testauth.oauth_available).toBe(true);
    expect(byId.noapp.oauth_available).toBe(false);
    expect(byId.patonly).not.toHaveProperty("oauth_available");
    expect(response.body).not.toContain("test-client-secret");
    expect(response.body).not.toContain("broker-test-client");
  });

  it("uses the bare registry hash as the ETag when every OAuth integration has an app", async () => {
    const registry = testRegistry();
    start({ registry, oauthApps: { testauth: { clientId: "a", clientSecret: "secret-a-123456" }, noapp: { clientId: "b", clientSecret: "secret-b-123456" } } });
    const response = await app.inject({ method: "GET", url: "/registry" });
    expect(response.headers.etag).toBe(`"${registry.hash}"`);
  });

  it("answers 304 with no body to a matching If-None-Match, including weak and listed forms", async () => {
    start();
    const first = await app.inject({ method: "GET", url: "/registry" });
    const etag = first.headers.etag as string;
    for (const header of [etag, `W/${etag}`, `"other", ${etag}`, "*"]) {
      const response = await app.inject({ method: "GET", url: "/registry", headers: { "if-none-match": header } });
      expect(response.statusCode).toBe(304);
      expect(response.body).toBe("");
      expect(response.headers.etag).toBe(etag);
      expect(response.headers.vary).toBe("Accept-Encoding");
      expect(response.headers["cache-control"]).toBe("public, max-age=300");
    }
    const stale = await app.inject({ method: "GET", url: "/registry", headers: { "if-none-match": '"stale"' } });
    expect(stale.statusCode).toBe(200);
    expect(stale.json().schema).toBe(1);
  });

  it("serves precompressed brotli and gzip with their own ETags, and identity otherwise", async () => {
    start();
    const identity = await app.inject({ method: "GET", url: "/registry" });
    const brotli = await app.inject({ method: "GET", url: "/registry", headers: { "accept-encoding": "gzip, deflate, br" } });
    const gzip = await app.inject({ method: "GET", url: "/registry", headers: { "accept-encoding": "gzip;q=1, br;q=0.5" } });
    const refused = await app.inject({ method: "GET", url: "/registry", headers: { "accept-encoding": "br;q=0, gzip;q=0" } });
    expect(brotli.headers["content-encoding"]).toBe("br");
    expect(brotliDecompressSync(brotli.rawPayload).toString()).toBe(identity.body);
    expect(gzip.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(identity.body);
    expect(refused.headers["content-encoding"]).toBeUndefined();
    const etags = new Set([identity.headers.etag, brotli.headers.etag, gzip.headers.etag]);
    expect(etags.size).toBe(3);
    expect(Number(brotli.headers["content-length"])).toBeLessThan(identity.rawPayload.length);

    const notModified = await app.inject({
      method: "GET",
      url: "/registry",
      headers: { "accept-encoding": "br", "if-none-match": brotli.headers.etag as string },
    });
    expect(notModified.statusCode).toBe(304);
    expect(notModified.headers["content-encoding"]).toBeUndefined();
    const otherEncoding = await app.inject({
      method: "GET",
      url: "/registry",
      headers: { "accept-encoding": "gzip", "if-none-match": brotli.headers.etag as string },
    });
    expect(otherEncoding.statusCode).toBe(200);
    expect(otherEncoding.headers["content-encoding"]).toBe("gzip");
  });

  it("compresses once at build time: the same bytes come back on every request", async () => {
    start();
    const first = await app.inject({ method: "GET", url: "/registry", headers: { "accept-encoding": "br" } });
    const second = await app.inject({ method: "GET", url: "/registry", headers: { "accept-encoding": "br" } });
    expect(Buffer.compare(first.rawPayload, second.rawPayload)).toBe(0);
  });

  it("lets any web origin read it (it is public) and answers HEAD", async () => {
    start();
    const response = await app.inject({ method: "HEAD", url: "/registry" });
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe("");
    expect(response.headers["access-control-allow-origin"]).toBe("*");
    expect(response.headers["x-content-type-options"]).toBe("nosniff");
  });
});

describe("GET /registry/:id", () => {
  it("serves one manifest with its hash and an ETag from the manifest hash", async () => {
    const { config } = start();
    const response = await app.inject({ method: "GET", url: "/registry/patonly" });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.id).toBe("patonly");
    expect(body.hash).toBe(config.registry.manifestHash("patonly"));
    expect(response.headers.etag).toBe(`"${config.registry.manifestHash("patonly")}"`);
    const notModified = await app.inject({ method: "GET", url: "/registry/patonly", headers: { "if-none-match": response.headers.etag as string } });
    expect(notModified.statusCode).toBe(304);
  });

  it("answers a JSON 404 unknown_integration for an unknown id", async () => {
    start();
    for (const url of ["/registry/nope", "/registry/__proto__", "/registry/%3Cscript%3E"]) {
      const response = await app.inject({ method: "GET", url });
      expect(response.statusCode).toBe(404);
      expect(response.headers["content-type"]).toBe("application/json; charset=utf-8");
      expect(response.json()).toEqual({ error: { code: "unknown_integration", message: "no integration with this id in the registry" } });
    }
  });
});

describe("other routes", () => {
  it("GET /healthz answers ok with the registry hash, never cached", async () => {
    const { config } = start();
    const response = await app.inject({ method: "GET", url: "/healthz" });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: "ok", registry: config.registry.hash });
    expect(response.headers["cache-control"]).toBe("no-store");
  });

  it("an unknown path is a JSON 404, or a page for a browser", async () => {
    start();
    const json = await app.inject({ method: "GET", url: "/nothing-here?code=secret" });
    expect(json.statusCode).toBe(404);
    expect(json.json()).toEqual({ error: { code: "not_found", message: "no such page" } });
    const page = await app.inject({ method: "GET", url: "/nothing-here", headers: { accept: "text/html,application/xhtml+xml" } });
    expect(page.statusCode).toBe(404);
    expect(page.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(page.headers["content-security-policy"]).toContain("default-src 'none'");
    expect(page.body).toContain("not_found");
  });

  it("a method a route does not have is a JSON error, never fastify's own shape", async () => {
    start();
    const response = await app.inject({ method: "DELETE", url: "/registry" });
    expect(response.statusCode).toBe(404);
    expect(response.json().error.code).toBe("not_found");
  });
});
