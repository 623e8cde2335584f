import { canonicalJson } from "@eleven-integrations/schema";
import fc from "fast-check";
import sodium from "libsodium-wrappers";
import { beforeAll, describe, expect, it } from "vitest";
import { refusal } from "./__fixtures__/forge.js";
import { fromBase64Url, toBase64Url, transientFromBase64Url } from "./base64url.js";
import { confirmationJson, readConfirmationPayload, type ConfirmationPayload } from "./confirmation-payload.js";
import { argsDigest } from "./digest.js";
import { grantJson, type Grant } from "./grant-payload.js";
import { ready } from "./sodium.js";
import { asciiText, utf8 } from "./text-bytes.js";

beforeAll(ready);

const b64 = (length: number) => fc.uint8Array({ minLength: length, maxLength: length }).map((bytes) => Buffer.from(bytes).toString("base64url"));
const anyText = fc.string({ unit: "binary", maxLength: 40 });

describe("base64url codec", () => {
  it("encodes as Node and libsodium do, and decodes back", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
        const text = toBase64Url(bytes);
        expect(text).toBe(Buffer.from(bytes).toString("base64url"));
        expect(text).toBe(sodium.to_base64(bytes, sodium.base64_variants.URLSAFE_NO_PADDING));
        expect(fromBase64Url(text)).toEqual(bytes);
        expect(transientFromBase64Url(`eg1.${text}`, 4)).toEqual(bytes);
      }),
    );
  });

  it("accepts exactly what libsodium's strict decoder accepts", () => {
    const alphabet = fc.constantFrom(..."AQgwBCz09-_+/= .\u00e9\u0100".split(""));
    fc.assert(
      fc.property(
        fc.array(alphabet, { maxLength: 12 }).map((chars) => chars.join("")),
        (text) => {
          let expected: Uint8Array | undefined;
          try {
            expected = sodium.from_base64(text, sodium.base64_variants.URLSAFE_NO_PADDING);
          } catch {
            expected = undefined;
          }
          if (expected === undefined) expect(refusal(() => fromBase64Url(text))).toBe("malformed");
          else expect(fromBase64Url(text)).toEqual(expected);
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe("text bytes", () => {
  it("encodes UTF-8 as TextEncoder does, and reads ASCII only", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 60 }), (text) => {
        const bytes = utf8(text);
        expect(bytes).toEqual(new TextEncoder().encode(text));
        const ascii = asciiText(bytes);
        expect(ascii).toBe(/^[\0-\x7f]*$/.test(text) ? text : undefined);
      }),
    );
  });
});

describe("canonical serialisations", () => {
  const grant = fc.record(
    {
      v: fc.constant(1 as const),
      typ: fc.constant("grant" as const),
      gid: b64(16),
      iss: b64(32),
      aud: b64(32),
      integration: fc.stringMatching(/^[a-z][a-z0-9-]{0,39}$/),
      manifest_hash: fc.stringMatching(/^[0-9a-f]{64}$/),
      access: fc.constantFrom("read" as const, "write" as const),
      ops: fc.uniqueArray(fc.stringMatching(/^[a-z][a-z0-9_]{0,8}\.[a-z][a-z0-9_]{0,8}$/), { minLength: 1, maxLength: 4 }),
      cred: fc.record({ kind: fc.constantFrom("pat" as const, "oauth" as const), token: fc.stringMatching(/^[\x21-\x7e]{1,60}$/) }),
      iat: fc.integer({ min: 0, max: 2 ** 40 }),
      exp: fc.integer({ min: 0, max: 2 ** 40 }),
    },
    { requiredKeys: ["v", "typ", "gid", "iss", "aud", "integration", "manifest_hash", "access", "cred", "iat", "exp"] },
  );

  it("writes a grant exactly as RFC 8785 canonicalJson does", () => {
    fc.assert(
      fc.property(grant, (value: Grant) => {
        expect(grantJson(value)).toBe(canonicalJson(value));
      }),
    );
  });

  const payload = fc.record({
    v: fc.constant(1 as const),
    gid: b64(16),
    op: fc.stringMatching(/^[a-z][a-z0-9_]{0,8}\.[a-z][a-z0-9_]{0,8}$/),
    args_digest: b64(32),
    line_digest: b64(32),
    nonce: b64(16),
    exp: fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }),
  });

  it("writes and reads a confirmation payload exactly as RFC 8785 canonicalJson does", () => {
    fc.assert(
      fc.property(payload, (value: ConfirmationPayload) => {
        const json = confirmationJson(value);
        expect(json).toBe(canonicalJson(value));
        expect(readConfirmationPayload(utf8(json))).toEqual(value);
      }),
    );
  });

  it("refuses any one-character change of a payload that is no longer canonical and valid", () => {
    const replacement = fc.constantFrom(...'0 9A_-"\\{}:,.aZ\u00e9'.split(""));
    fc.assert(
      fc.property(payload, fc.nat(), replacement, (value: ConfirmationPayload, at, char) => {
        const json = confirmationJson(value);
        const index = at % json.length;
        const changed = json.slice(0, index) + char + json.slice(index + 1);
        let reparsed: unknown;
        try {
          reparsed = JSON.parse(changed);
        } catch {
          reparsed = undefined;
        }
        const stillValid = reparsed !== undefined && canonicalJson(reparsed) === changed && refusal(() => readConfirmationPayload(utf8(changed))) === undefined;
        if (!stillValid) expect(refusal(() => readConfirmationPayload(utf8(changed)))).toBe("malformed");
        else expect(readConfirmationPayload(utf8(changed))).toEqual(reparsed);
      }),
      { numRuns: 500 },
    );
  });

  it("digests args as BLAKE2b-256 of canonicalJson, whatever their order, keys or characters", () => {
    const key = fc.oneof(fc.stringMatching(/^[a-z][a-z0-9_]{0,6}$/), fc.constantFrom("10", "9", "0", "__proto__", "toJSON"), anyText);
    fc.assert(
      fc.property(fc.dictionary(key, anyText, { maxKeys: 6 }), (args) => {
        const expected = sodium.to_base64(
          sodium.crypto_generichash(32, new TextEncoder().encode(canonicalJson(args)), null),
          sodium.base64_variants.URLSAFE_NO_PADDING,
        );
        expect(argsDigest(args)).toBe(expected);
        const reversed = Object.fromEntries(Object.entries(args).reverse());
        expect(argsDigest(reversed)).toBe(expected);
      }),
    );
  });
});
