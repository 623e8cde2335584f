import { generateReleaseKeys, ready, signRelease, verifyRelease, type KeyPair, type ReleaseBody } from "@eleven-integrations/grants";
import type { FastifyInstance } from "fastify";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { BrokerConfigError } from "../config/config.js";
import { testApp } from "../__fixtures__/test-app.js";
import { checkReleaseSignature, loadServedRelease } from "./signed-release.js";
import { nastyManifest, noAppManifest, oauthManifest, patManifest, testRegistry } from "../__fixtures__/test-registry.js";

let releaseKey: KeyPair;
let app: FastifyInstance | undefined;
beforeAll(async () => {
  await ready();
  releaseKey = generateReleaseKeys();
});
afterEach(async () => {
  await app?.close();
  app = undefined;
});

function body(manifests: object[], sequence = 1): ReleaseBody {
  const registry = testRegistry(manifests);
  return { schema: 1, hash: registry.hash, sequence, previous: null, integrations: registry.catalog().integrations.map(({ hash: _hash, ...m }) => m) };
}

const threeManifests = [oauthManifest, patManifest, noAppManifest];

describe("GET /registry.signed", () => {
  it("answers the configured release byte for byte, with a strong ETag, and 304 on If-None-Match", async () => {
    // Pretty-printed on purpose: the broker must not re-serialise it.
    const document = `${JSON.stringify(JSON.parse(signRelease(body(threeManifests, 2), [releaseKey])), null, 2)}\n`;
    const built = testApp({ registry: undefined, release: document, releaseKeys: [releaseKey.publicKey] });
    app = built.app;
    await app.ready();
    const response = await app.inject({ method: "GET", url: "/registry.signed", headers: { "accept-encoding": "gzip, br" } });
    expect(response.statusCode).toBe(200);
    expect(response.rawPayload.equals(Buffer.from(document))).toBe(true);
    expect(response.headers["content-encoding"]).toBeUndefined();
    expect(response.headers["content-type"]).toBe("application/json; charset=utf-8");
    const etag = response.headers.etag as string;
    expect(etag).toMatch(/^"[0-9a-f]{64}"$/);
    expect(verifyRelease(response.rawPayload, { trustedKeys: [releaseKey.publicKey] }).registry.sequence).toBe(2);

    const again = await app.inject({ method: "GET", url: "/registry.signed", headers: { "if-none-match": etag } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe("");
    expect(again.headers.etag).toBe(etag);
    const stale = await app.inject({ method: "GET", url: "/registry.signed", headers: { "if-none-match": '"0000"' } });
    expect(stale.statusCode).toBe(200);
  });

  it("serves /registry, /registry/:id and the page from the same release", async () => {
    const release = body(threeManifests);
    app = testApp({ registry: undefined, release: signRelease(release, [releaseKey]) }).app;
    const catalog = (await app.inject({ method: "GET", url: "/registry" })).json();
    expect(catalog.hash).toBe(release.hash);
    expect(catalog.integrations.map((entry: { id: string }) => entry.id)).toEqual(["noapp", "patonly", "testauth"]);
    expect((await app.inject({ method: "GET", url: "/registry/nasty" })).statusCode).toBe(404);
    expect((await app.inject({ method: "GET", url: "/registry/patonly" })).statusCode).toBe(200);
    const page = await app.inject({ method: "GET", url: "/", headers: { accept: "text/html" } });
    expect(page.body).toContain("patonly");
    expect(page.body).not.toContain("nasty");
  });

  it("is a JSON 404 when no release is configured", async () => {
    app = testApp().app;
    const response = await app.inject({ method: "GET", url: "/registry.signed" });
    expect(response.statusCode).toBe(404);
    expect(response.json().error.code).toBe("not_found");
  });

  it("refuses to build with a release that is truncated, whose manifests fail, or that differs from the given registry", () => {
    const signed = signRelease(body(threeManifests), [releaseKey]);
    const refused = (overrides: Parameters<typeof testApp>[0]) => {
      try {
        testApp(overrides);
      } catch (error) {
        expect(BrokerConfigError.isInstance(error)).toBe(true);
        return (error as BrokerConfigError).message;
      }
      throw new Error("expected a BrokerConfigError");
    };
    expect(refused({ registry: undefined, release: signed.slice(0, 100) })).toMatch(/release: is not a registry release: the release is not JSON/);
    const bad = body(threeManifests);
    (bad.integrations[0] as { ops: unknown[] }).ops = [];
    expect(refused({ registry: undefined, release: signRelease(bad, [releaseKey]) })).toMatch(/release: noapp\.json: ops/);
    expect(refused({ registry: testRegistry([oauthManifest, patManifest, noAppManifest, nastyManifest]), release: signed })).toMatch(
      /not the configured registry/,
    );
    expect(refused({ registry: undefined })).toMatch(/registry: is required/);
  });

  it("refuses to start with a release none of releaseKeys signed", async () => {
    app = testApp({ registry: undefined, release: signRelease(body(threeManifests), [generateReleaseKeys()]), releaseKeys: [releaseKey.publicKey] }).app;
    await expect(app.ready()).rejects.toThrow(/does not verify with releaseKeys \(untrusted_key\)/);
  });
});

describe("the document as read", () => {
  it("is kept until its signature is checked, then let go (nothing else needs it); never kept without release keys", async () => {
    const document = signRelease(body(threeManifests, 3), [releaseKey]);
    const release = loadServedRelease(document);
    expect(release.parsed?.manifestBytes).toBeDefined();
    checkReleaseSignature(release, [releaseKey.publicKey]);
    expect(release.parsed).toBeUndefined();
    expect(() => checkReleaseSignature(release, [releaseKey.publicKey])).toThrow(/checked already/);
    // A refused signature keeps nothing either way: the broker does not start.
    const unsigned = loadServedRelease(document);
    expect(() => checkReleaseSignature(unsigned, [generateReleaseKeys().publicKey])).toThrow(BrokerConfigError);

    const built = testApp({ registry: undefined, release: document });
    app = built.app;
    await app.ready();
    expect(app.broker.release?.parsed).toBeUndefined();
    expect((await app.inject({ method: "GET", url: "/registry.signed" })).statusCode).toBe(200);
  });
});
