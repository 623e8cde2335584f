import { canonicalJson } from "@eleven-integrations/schema";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { fromBase64Url, toBase64Url } from "./base64url.js";
import type { KeyPair } from "./keys.js";
import type { ReleaseBody } from "./release-document.js";
import { ReleaseError } from "./release-error.js";
import { readLaidOutRelease } from "./release-layout.js";
import type { ReleaseManifestBytes } from "./release-pieces.js";
import { generateReleaseKeys, parseRelease, RELEASE_CONTEXT, signRelease, verifyParsedRelease, verifyRelease } from "./release.js";
import { signedMessage } from "./signed-message.js";
import { lib, ready } from "./sodium.js";

let releaseKey: KeyPair;

beforeAll(async () => {
  await ready();
  releaseKey = generateReleaseKeys();
});

const HASH = "c".repeat(64);

function body(integrations: unknown[]): ReleaseBody {
  return { schema: 1, hash: HASH, sequence: 4, previous: null, integrations };
}

/** The manifests' bytes as text. */
const texts = (bytes: ReleaseManifestBytes | undefined) => bytes?.manifests.map((manifest) => Buffer.from(manifest).toString("utf8"));

/** The same object with its keys sorted, as RFC 8785 writes them. */
const sorted = (value: unknown): unknown => JSON.parse(canonicalJson(value));

/** Strings that look like the layout's own delimiters, escapes and non-ASCII text. */
const trickyString = fc.oneof(
  fc.string(),
  fc.constantFrom(',"signatures":', '},"signatures":[', '\\",', "\\\\", '"', "]}", "Démo ✓", "\u2028", "\ud83d\ude00", "{[,]}"),
);
const integration = fc.record({ id: fc.stringMatching(/^[a-z]{1,8}$/), name: trickyString, notes: fc.array(trickyString, { maxLength: 3 }) });

/** Signs `bytes` as they are (not their canonical JSON): what only the laid-out path can verify. */
function signBytes(bytes: Uint8Array, signer: KeyPair): string {
  const message = signedMessage([Buffer.from(RELEASE_CONTEXT, "utf8"), bytes]);
  return toBase64Url(lib().crypto_sign_detached(message, fromBase64Url(signer.secretKey)));
}

describe("a release laid out as signRelease writes it", () => {
  it("is read as parsing the whole document reads it, from text or bytes, whatever its strings hold", () => {
    fc.assert(
      fc.property(fc.array(integration, { minLength: 1, maxLength: 4 }), fc.boolean(), (integrations, asBytes) => {
        const text = signRelease(body(integrations), [releaseKey]);
        const parsed = parseRelease(asBytes ? Buffer.from(text) : text);
        expect(parsed.document).toEqual(JSON.parse(text));
        expect(texts(parsed.manifestBytes)).toEqual(integrations.map((item) => canonicalJson(item)));
        expect(Buffer.from(parsed.manifestBytes?.array ?? []).toString("utf8")).toBe(canonicalJson(integrations));
        const verified = verifyParsedRelease(parsed, { trustedKeys: [releaseKey.publicKey] });
        expect(verified.manifestBytes).toBe(parsed.manifestBytes);
      }),
      { numRuns: 150 },
    );
  });

  it("verifies a signature over the registry's bytes as they stand, so they are what the key signed", () => {
    // A trusted key signed these very bytes, spaced out: only the laid-out path checks them as they are.
    const spaced = JSON.stringify(sorted(body([{ id: "demo", name: "Démo" }])), null, 1);
    const signature = signBytes(Buffer.from(spaced, "utf8"), releaseKey);
    const text = `{"registry":${spaced},"signatures":[{"key":"${releaseKey.publicKey}","signature":"${signature}"}]}\n`;
    const verified = verifyRelease(Buffer.from(text), { trustedKeys: [releaseKey.publicKey] });
    // Each manifest's text as it stands, with the spaces around it, so the texts joined are the array signed.
    expect(texts(verified.manifestBytes)).toEqual([spaced.slice(spaced.indexOf("[") + 1, spaced.lastIndexOf("]"))]);
    expect(verified.registry).toEqual(JSON.parse(spaced));
    // One byte changed in them is refused.
    const changed = text.replace('"Démo"', '"Demo"');
    expect(() => verifyRelease(changed, { trustedKeys: [releaseKey.publicKey] })).toThrow(ReleaseError);
  });

  it("signed over the canonical JSON but spelled otherwise inside the layout: verified by writing it, and its text not offered", () => {
    const registry = body([{ id: "demo", name: "Démo" }]);
    const document = JSON.parse(signRelease(registry, [releaseKey]));
    const respelled = `{"registry":${JSON.stringify(sorted(registry), null, 2)},"signatures":${JSON.stringify(document.signatures)}}`;
    const parsed = parseRelease(respelled);
    expect(parsed.manifestBytes).toBeDefined();
    const verified = verifyParsedRelease(parsed, { trustedKeys: [releaseKey.publicKey] });
    expect(verified.registry).toEqual(registry);
    expect(verified.manifestBytes).toBeUndefined();
  });

  it("a later ',\"signatures\":' (a key inside a signature entry) is not taken for the layout's own", () => {
    // Inside a string the quotes would be escaped: only a key can spell it.
    const text = `{"registry":{"a":1},"signatures":[{"key":"k","signature":"s","signatures":[1]}]}`;
    expect(readLaidOutRelease(Buffer.from(text))).toBeUndefined();
    // Parsed whole instead, and refused for its shape like any other document.
    expect(() => parseRelease(text)).toThrow(/registry/);
  });

  it("bytes with a byte order mark are read past it, as decoding them drops it, and the release still verifies", () => {
    const text = signRelease(body([{ id: "demo", name: "Démo" }]), [releaseKey]);
    const withMark = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]);
    const verified = verifyRelease(withMark, { trustedKeys: [releaseKey.publicKey] });
    expect(texts(verified.manifestBytes)).toEqual(['{"id":"demo","name":"Démo"}']);
    // A text is not: a byte order mark in a string is a character JSON does not allow there, as before.
    expect(() => parseRelease(`\ufeff${text}`)).toThrow(/not JSON/);
  });

  it("a registry that is not plain JSON with sorted keys is decoded whole: still verified over its bytes, without manifest bytes", () => {
    const registry = body([{ id: "demo", name: "Démo" }]);
    // Keys out of order: RFC 8785 never writes them so, and a duplicate key is never guessed at.
    const unsorted = `{"schema":1,"hash":"${HASH}","sequence":4,"previous":null,"integrations":[{"id":"demo","name":"Démo"}]}`;
    const signature = signBytes(Buffer.from(unsorted, "utf8"), releaseKey);
    const text = `{"registry":${unsorted},"signatures":[{"key":"${releaseKey.publicKey}","signature":"${signature}"}]}`;
    const verified = verifyRelease(Buffer.from(text), { trustedKeys: [releaseKey.publicKey] });
    expect(verified.registry).toEqual(registry);
    expect(verified.manifestBytes).toBeUndefined();
  });

  it("a string holding a lone surrogate is parsed whole, as JSON.parse reads it; a pair is read as bytes", () => {
    const signed = signRelease(body([{ id: "demo", name: "x" }]), [releaseKey]);
    for (const lone of ["\ud83d", "\ude00", "a\ude00\ud83d"]) {
      const text = signed.replace('"name":"x"', `"name":"${lone}"`);
      const parsed = parseRelease(text);
      expect(parsed.document).toEqual(JSON.parse(text));
      expect(parsed.manifestBytes).toBeUndefined();
    }
    const pair = signed.replace('"name":"x"', '"name":"\ud83d\ude00"');
    expect(texts(parseRelease(pair).manifestBytes)).toEqual(['{"id":"demo","name":"\ud83d\ude00"}']);
    expect(parseRelease(pair).document).toEqual(JSON.parse(pair));
  });

  it("a byte order mark inside the document, before the registry, a manifest or the signatures, is refused as parsing the whole refuses it", () => {
    const text = signRelease(body([{ id: "demo", name: "x" }]), [releaseKey]);
    const mark = "\ufeff";
    for (const inside of [
      text.replace('{"registry":', `{"registry":${mark}`),
      text.replace('"integrations":[', `"integrations":[${mark}`),
      text.replace(',"signatures":', `,"signatures":${mark}`),
    ]) {
      expect(() => JSON.parse(inside)).toThrow(SyntaxError);
      expect(() => parseRelease(Buffer.from(inside))).toThrow(/not JSON/);
      expect(() => parseRelease(inside)).toThrow(/not JSON/);
    }
  });

  it("refuses bytes that are not UTF-8 as before", () => {
    const text = signRelease(body([{ id: "demo", name: "x" }]), [releaseKey]);
    const broken = Buffer.from(text);
    broken[20] = 0xff;
    expect(() => parseRelease(broken)).toThrow(/not UTF-8/);
    // Inside a manifest's string, where the registry is read piece by piece.
    const inString = Buffer.from(text);
    inString[inString.indexOf('"x"') + 1] = 0xc0;
    expect(() => parseRelease(inString)).toThrow(/not UTF-8/);
  });
});
