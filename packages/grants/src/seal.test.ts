import { beforeAll, describe, expect, it } from "vitest";
import { refusal, thrown } from "./__fixtures__/forge.js";
import { decodeKey, fromBase64Url, isBase64UrlOf, toBase64Url } from "./base64url.js";
import { generateBotKeys, generateMemberKeys } from "./keys.js";
import { openSealed, sealToPublicKey } from "./seal.js";
import { generateSecretKey, secretboxOpen, secretboxSeal } from "./secretbox.js";
import { ready } from "./sodium.js";

beforeAll(ready);

describe("base64url and keys", () => {
  it("round-trips bytes as unpadded base64url", () => {
    const bytes = new Uint8Array([0, 1, 250, 251, 252, 253, 254, 255]);
    const text = toBase64Url(bytes);
    expect(text).toBe("AAH6-_z9_v8");
    expect(fromBase64Url(text)).toEqual(bytes);
  });

  it("refuses padding, the standard alphabet, whitespace and stray bits (malformed)", () => {
    for (const text of ["AAH6-_z9_v8=", "AAH6+/z9/v8", "AAH6 -_z9_v8", "AB", "A"]) {
      expect(refusal(() => fromBase64Url(text))).toBe("malformed");
    }
  });

  it("decodes a key only at its exact size, naming what was wrong but not the value", () => {
    const key = toBase64Url(new Uint8Array(32).fill(9));
    expect(decodeKey(key, 32, "bot public key")).toHaveLength(32);
    const error = thrown(() => decodeKey(key, 16, "state key"));
    expect(error.code).toBe("malformed");
    expect(error.message).toContain("state key");
    expect(error.message).not.toContain(key);
    expect(refusal(() => decodeKey("!!", 32, "key"))).toBe("malformed");
  });

  it("checks the one spelling of a fixed-size value without decoding", () => {
    const key = toBase64Url(new Uint8Array(32).fill(255));
    expect(isBase64UrlOf(key, 32)).toBe(true);
    expect(isBase64UrlOf(`${key.slice(0, -1)}9`, 32)).toBe(false);
    expect(isBase64UrlOf(key, 16)).toBe(false);
    expect(isBase64UrlOf(toBase64Url(new Uint8Array(16).fill(255)), 16)).toBe(true);
    expect(isBase64UrlOf(42, 16)).toBe(false);
  });

  it("generates Ed25519 member keys and X25519 bot keys of the right sizes", () => {
    const member = generateMemberKeys();
    expect(fromBase64Url(member.publicKey)).toHaveLength(32);
    expect(fromBase64Url(member.secretKey)).toHaveLength(64);
    const bot = generateBotKeys();
    expect(fromBase64Url(bot.publicKey)).toHaveLength(32);
    expect(fromBase64Url(bot.secretKey)).toHaveLength(32);
    expect(generateBotKeys().publicKey).not.toBe(bot.publicKey);
  });
});

describe("sealToPublicKey and openSealed", () => {
  it("opens for the key it was sealed to, text or bytes", () => {
    const keys = generateBotKeys();
    expect(new TextDecoder().decode(openSealed(sealToPublicKey("h\u00E9llo", keys.publicKey), keys))).toBe("h\u00E9llo");
    expect(openSealed(sealToPublicKey(new Uint8Array([1, 2, 3]), keys.publicKey), keys)).toEqual(new Uint8Array([1, 2, 3]));
  });

  it("refuses another key or an altered value (not_for_this_bot), and bad input (malformed)", () => {
    const keys = generateBotKeys();
    const sealed = sealToPublicKey("secret", keys.publicKey);
    expect(refusal(() => openSealed(sealed, generateBotKeys()))).toBe("not_for_this_bot");
    const bytes = fromBase64Url(sealed);
    bytes[10] = (bytes[10] as number) ^ 1;
    expect(refusal(() => openSealed(toBase64Url(bytes), keys))).toBe("not_for_this_bot");
    expect(refusal(() => openSealed("not base64!", keys))).toBe("malformed");
    expect(refusal(() => openSealed(toBase64Url(new Uint8Array(47)), keys))).toBe("malformed");
    expect(refusal(() => sealToPublicKey("x", "short"))).toBe("malformed");
  });
});

describe("secretbox", () => {
  it("opens with the current key or an older one, and not with others", () => {
    const current = generateSecretKey();
    const older = generateSecretKey();
    expect(fromBase64Url(current)).toHaveLength(32);
    const box = secretboxSeal("state", older);
    const opened = secretboxOpen(box, [current, older]);
    expect(opened && new TextDecoder().decode(opened)).toBe("state");
    expect(secretboxOpen(box, [current])).toBeUndefined();
    expect(secretboxOpen(box, [])).toBeUndefined();
  });

  it("uses a fresh nonce each time and returns undefined for anything altered or not base64url", () => {
    const key = generateSecretKey();
    const first = secretboxSeal("same", key);
    expect(secretboxSeal("same", key)).not.toBe(first);
    const bytes = fromBase64Url(first);
    for (let index = 0; index < bytes.length; index++) {
      const altered = bytes.slice();
      altered[index] = (altered[index] as number) ^ 0x80;
      expect(secretboxOpen(toBase64Url(altered), [key])).toBeUndefined();
    }
    expect(secretboxOpen("%%%", [key])).toBeUndefined();
    expect(secretboxOpen(toBase64Url(new Uint8Array(39)), [key])).toBeUndefined();
  });

  it("refuses a key that is not 32 bytes of unpadded base64url (malformed)", () => {
    expect(refusal(() => secretboxSeal("x", "short"))).toBe("malformed");
    expect(refusal(() => secretboxOpen(secretboxSeal("x", generateSecretKey()), ["short"]))).toBe("malformed");
  });
});
