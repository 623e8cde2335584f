import { canonicalJson } from "@eleven-integrations/schema";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { fromBase64Url, toBase64Url } from "./base64url.js";
import type { KeyPair } from "./keys.js";
import type { ReleaseBody } from "./release-document.js";
import { ReleaseError } from "./release-error.js";
import { readLaidOutRelease } from "./release-layout.js";
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
        expect(parsed.registryText).toBe(canonicalJson(body(integrations)));
        const verified = verifyParsedRelease(parsed, { trustedKeys: [releaseKey.publicKey] });
        expect(verified.registryText).toBe(parsed.registryText);
      }),
      { numRuns: 150 },
    );
  });

  it("verifies a signature over the registry's bytes as they stand, so they are what the key signed", () => {
    // A trusted key signed these very bytes, spaced out: only the laid-out path checks them as they are.
    const spaced = JSON.stringify(body([{ id: "demo", name: "Démo" }]), null, 1);
    const signature = signBytes(Buffer.from(spaced, "utf8"), releaseKey);
    const text = `{"registry":${spaced},"signatures":[{"key":"${releaseKey.publicKey}","signature":"${signature}"}]}\n`;
    const verified = verifyRelease(Buffer.from(text), { trustedKeys: [releaseKey.publicKey] });
    expect(verified.registryText).toBe(spaced);
    expect(verified.registry).toEqual(JSON.parse(spaced));
    // One byte changed in them is refused.
    const changed = text.replace('"Démo"', '"Demo"');
    expect(() => verifyRelease(changed, { trustedKeys: [releaseKey.publicKey] })).toThrow(ReleaseError);
  });

  it("signed over the canonical JSON but spelled otherwise inside the layout: verified by writing it, and its text not offered", () => {
    const registry = body([{ id: "demo", name: "Démo" }]);
    const document = JSON.parse(signRelease(registry, [releaseKey]));
    const respelled = `{"registry":${JSON.stringify(registry, null, 2)},"signatures":${JSON.stringify(document.signatures)}}`;
    const parsed = parseRelease(respelled);
    expect(parsed.registryText).toBe(JSON.stringify(registry, null, 2));
    const verified = verifyParsedRelease(parsed, { trustedKeys: [releaseKey.publicKey] });
    expect(verified.registry).toEqual(registry);
    expect(verified.registryText).toBeUndefined();
  });

  it("a later ',\"signatures\":' (a key inside a signature entry) is not taken for the layout's own", () => {
    // Inside a string the quotes would be escaped: only a key can spell it.
    const text = `{"registry":{"a":1},"signatures":[{"key":"k","signature":"s","signatures":[1]}]}`;
    expect(readLaidOutRelease(text, Buffer.from(text))).toBeUndefined();
    // Parsed whole instead, and refused for its shape like any other document.
    expect(() => parseRelease(text)).toThrow(/registry/);
  });

  it("bytes with a byte order mark: the registry's bytes are encoded from its text, and the release still verifies", () => {
    const text = signRelease(body([{ id: "demo", name: "Démo" }]), [releaseKey]);
    const withMark = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]);
    const laidOut = readLaidOutRelease(text, withMark);
    expect(Buffer.from(laidOut?.registryBytes ?? []).toString("utf8")).toBe(laidOut?.registryText);
    expect(verifyRelease(withMark, { trustedKeys: [releaseKey.publicKey] }).registryText).toBe(laidOut?.registryText);
  });

  it("refuses bytes that are not UTF-8 as before", () => {
    const text = signRelease(body([{ id: "demo", name: "x" }]), [releaseKey]);
    const broken = Buffer.from(text);
    broken[20] = 0xff;
    expect(() => parseRelease(broken)).toThrow(/not UTF-8/);
  });
});
