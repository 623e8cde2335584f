import { createPublicKey, verify } from "node:crypto";
import { canonicalJson } from "@eleven-integrations/schema";
import { beforeAll, describe, expect, it } from "vitest";
import { fromBase64Url } from "./base64url.js";
import type { KeyPair } from "./keys.js";
import type { ReleaseBody } from "./release-document.js";
import { ReleaseError, type ReleaseErrorCode } from "./release-error.js";
import { generateReleaseKeys, type ParsedRelease, parseRelease, releaseMessage, signRelease, verifyParsedRelease, verifyRelease } from "./release.js";
import { ready } from "./sodium.js";

const HASH = "a".repeat(64);
let releaseKey: KeyPair;
let otherKey: KeyPair;

beforeAll(async () => {
  await ready();
  releaseKey = generateReleaseKeys();
  otherKey = generateReleaseKeys();
});

function body(overrides: Partial<ReleaseBody> = {}): ReleaseBody {
  return { schema: 1, hash: HASH, sequence: 2, previous: "b".repeat(64), integrations: [{ id: "demo", name: "Démo ✓" }], ...overrides };
}

function refusedWith(run: () => unknown): ReleaseErrorCode {
  try {
    run();
  } catch (error) {
    if (ReleaseError.isInstance(error)) return error.code;
    throw error;
  }
  throw new Error("expected a ReleaseError");
}

/** An Ed25519 public key (32 raw bytes) as a node KeyObject, so a signature is checked by OpenSSL, not libsodium. */
function nodePublicKey(raw: Uint8Array) {
  const der = Buffer.concat([Buffer.from("302a300506032b6570032100", "hex"), Buffer.from(raw)]);
  return createPublicKey({ key: der, format: "der", type: "spki" });
}

describe("signRelease", () => {
  it("writes { registry, signatures } as RFC 8785 JSON, signed over the length-prefixed context and canonical registry", () => {
    const text = signRelease(body(), [releaseKey]);
    expect(text.endsWith("\n")).toBe(true);
    const document = JSON.parse(text);
    expect(`${canonicalJson(document)}\n`).toBe(text);
    expect(document.registry).toEqual(body());
    expect(document.signatures).toHaveLength(1);
    expect(document.signatures[0].key).toBe(releaseKey.publicKey);

    const payload = Buffer.from(canonicalJson(body()), "utf8");
    const expected = Buffer.concat([
      Buffer.from([0, 0, 0, 18]),
      Buffer.from("eleven.registry.v1", "ascii"),
      Buffer.from([(payload.length >>> 24) & 255, (payload.length >>> 16) & 255, (payload.length >>> 8) & 255, payload.length & 255]),
      payload,
    ]);
    expect(Buffer.from(releaseMessage(body())).equals(expected)).toBe(true);
    // Verified by node's OpenSSL Ed25519, an implementation other than the one that signed.
    const ok = verify(null, expected, nodePublicKey(fromBase64Url(releaseKey.publicKey)), Buffer.from(fromBase64Url(document.signatures[0].signature)));
    expect(ok).toBe(true);
  });

  it("signs with several keys; each signature verifies alone", () => {
    const text = signRelease(body(), [releaseKey, otherKey]);
    expect(verifyRelease(text, { trustedKeys: [otherKey.publicKey] }).key).toBe(otherKey.publicKey);
    expect(verifyRelease(text, { trustedKeys: [releaseKey.publicKey] }).key).toBe(releaseKey.publicKey);
  });

  it("refuses a malformed body and a secret key that is not the public key's", () => {
    expect(refusedWith(() => signRelease(body({ sequence: 0 }), [releaseKey]))).toBe("malformed");
    expect(refusedWith(() => signRelease(body({ hash: "XYZ" }), [releaseKey]))).toBe("malformed");
    expect(refusedWith(() => signRelease(body(), []))).toBe("malformed");
    expect(() => signRelease(body(), [{ publicKey: otherKey.publicKey, secretKey: releaseKey.secretKey }])).toThrow(/does not belong/);
  });
});

describe("verifyRelease", () => {
  it("accepts a release signed by a trusted key, from text or bytes, ignoring untrusted signatures beside it", () => {
    const text = signRelease(body(), [otherKey, releaseKey]);
    const verified = verifyRelease(Buffer.from(text), { trustedKeys: [releaseKey.publicKey] });
    expect(verified.registry).toEqual(body());
    expect(verified.key).toBe(releaseKey.publicKey);
  });

  it("refuses a release signed by an unknown key (untrusted_key), whatever key it carries", () => {
    const text = signRelease(body(), [otherKey]);
    expect(refusedWith(() => verifyRelease(text, { trustedKeys: [releaseKey.publicKey] }))).toBe("untrusted_key");
  });

  it("refuses every one-byte change anywhere in the document (never accepted)", () => {
    const text = signRelease(body(), [releaseKey]);
    const bytes = Buffer.from(text);
    let badSignatures = 0;
    for (let index = 0; index < bytes.length; index += 1) {
      const changed = Buffer.from(bytes);
      changed[index] = (changed[index] as number) ^ 0x01;
      const code = refusedWith(() => verifyRelease(changed, { trustedKeys: [releaseKey.publicKey] }));
      expect(["bad_signature", "malformed", "untrusted_key"]).toContain(code);
      if (code === "bad_signature") badSignatures += 1;
    }
    expect(badSignatures).toBeGreaterThan(5);
  });

  it("refuses a changed signature (bad_signature) and a tampered sequence (bad_signature)", () => {
    const document = JSON.parse(signRelease(body(), [releaseKey]));
    const signature: string = document.signatures[0].signature;
    document.signatures[0].signature = (signature[0] === "A" ? "B" : "A") + signature.slice(1);
    expect(refusedWith(() => verifyRelease(JSON.stringify(document), { trustedKeys: [releaseKey.publicKey] }))).toBe("bad_signature");
    const rolled = JSON.parse(signRelease(body(), [releaseKey]));
    rolled.registry.sequence = 99;
    expect(refusedWith(() => verifyRelease(JSON.stringify(rolled), { trustedKeys: [releaseKey.publicKey] }))).toBe("bad_signature");
  });

  it("refuses a truncated release, non-UTF-8 bytes and a wrong shape as malformed", () => {
    const text = signRelease(body(), [releaseKey]);
    const trustedKeys = [releaseKey.publicKey];
    expect(refusedWith(() => verifyRelease(text.slice(0, text.length >> 1), { trustedKeys }))).toBe("malformed");
    expect(refusedWith(() => verifyRelease(Buffer.from([0x7b, 0xff, 0x7d]), { trustedKeys }))).toBe("malformed");
    const extra = JSON.parse(text);
    extra.registry.note = "x";
    expect(refusedWith(() => verifyRelease(JSON.stringify(extra), { trustedKeys }))).toBe("malformed");
    expect(refusedWith(() => verifyRelease(JSON.stringify({ registry: body(), signatures: [] }), { trustedKeys }))).toBe("malformed");
    expect(refusedWith(() => verifyRelease("[]", { trustedKeys }))).toBe("malformed");
  });

  it("refuses a document over the size limit before parsing it", () => {
    const huge = Buffer.alloc(50 * 1024 * 1024, 0x20);
    expect(refusedWith(() => verifyRelease(huge, { trustedKeys: [releaseKey.publicKey] }))).toBe("too_large");
    const text = signRelease(body(), [releaseKey]);
    expect(refusedWith(() => verifyRelease(text, { trustedKeys: [releaseKey.publicKey], maxBytes: 100 }))).toBe("too_large");
  });
});

describe("parseRelease and verifyParsedRelease: read once, verify later", () => {
  it("verifies what verifyRelease verifies, and refuses what it refuses with the same code", () => {
    const text = signRelease(body(), [releaseKey]);
    const trustedKeys = [releaseKey.publicKey];
    const parsed = parseRelease(Buffer.from(text));
    expect(parsed.document.registry).toEqual(body());
    expect(verifyParsedRelease(parsed, { trustedKeys }).key).toBe(releaseKey.publicKey);
    expect(refusedWith(() => verifyParsedRelease(parsed, { trustedKeys: [otherKey.publicKey] }))).toBe("untrusted_key");
    const tampered = JSON.parse(text);
    tampered.registry.sequence = 3;
    expect(refusedWith(() => verifyParsedRelease(parseRelease(JSON.stringify(tampered)), { trustedKeys }))).toBe("bad_signature");
    expect(refusedWith(() => parseRelease(text.slice(0, 40)))).toBe("malformed");
    expect(refusedWith(() => parseRelease(text, { maxBytes: 10 }))).toBe("too_large");
  });

  it("checks the signature over the canonical form of the registry, whatever the document's own spelling", () => {
    const registry = body({ integrations: [{ id: "demo", errors: { codes: { "7003": "a", "971": "b" } }, name: "Démo ✓ \u2028" }] });
    const document = JSON.parse(signRelease(registry, [releaseKey]));
    // Pretty-printed, keys in another order, non-ASCII escaped: not canonical, yet the same registry signed.
    const respelled = JSON.stringify({ signatures: document.signatures, registry: { ...document.registry } }, null, 2).replace("Démo", "D\\u00e9mo");
    expect(respelled).not.toBe(signRelease(registry, [releaseKey]));
    const trustedKeys = [releaseKey.publicKey];
    expect(verifyParsedRelease(parseRelease(Buffer.from(respelled)), { trustedKeys }).registry).toEqual(registry);
    expect(verifyRelease(respelled, { trustedKeys }).registry).toEqual(registry);
    // The same spelling with one value changed is refused.
    expect(refusedWith(() => verifyRelease(respelled.replace('"a"', '"A"'), { trustedKeys }))).toBe("bad_signature");
  });

  it("verifies only a release parseRelease read: a look-alike object carrying its own document is refused", () => {
    const parsed = parseRelease(signRelease(body(), [releaseKey]));
    const forged = { document: { ...parsed.document, registry: body({ sequence: 50 }) } } as unknown as ParsedRelease;
    expect(refusedWith(() => verifyParsedRelease(forged, { trustedKeys: [releaseKey.publicKey] }))).toBe("malformed");
    // What it read is frozen: the registry that verifies is the one its message was made from.
    expect(Object.isFrozen(parsed.document.registry.integrations[0])).toBe(true);
    expect(() => {
      (parsed.document.registry as { sequence: number }).sequence = 50;
    }).toThrow(TypeError);
  });
});
