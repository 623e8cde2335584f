import sodium from "libsodium-wrappers";
import { beforeAll, describe, expect, it } from "vitest";
import { refusal } from "./__fixtures__/forge.js";
import { fromBase64Url, toBase64Url } from "./base64url.js";
import { argsDigest, keyedArgsDigest } from "./digest.js";
import { generateSecretKey } from "./secretbox.js";
import { ready } from "./sodium.js";

beforeAll(async () => {
  await ready();
});

describe("keyedArgsDigest (the audit line's digest)", () => {
  const args = { repo: "acme/payroll", title: "Raise for Bob", body: "from 50000 to 90000" };

  it("is keyed BLAKE2b-256 of the RFC 8785 args: the key changes it, key order of the args does not", () => {
    const keyA = generateSecretKey();
    const keyB = generateSecretKey();
    expect(keyedArgsDigest(args, keyA)).not.toBe(keyedArgsDigest(args, keyB));
    expect(keyedArgsDigest({ title: args.title, body: args.body, repo: args.repo }, keyA)).toBe(keyedArgsDigest(args, keyA));
    const canonical = '{"body":"from 50000 to 90000","repo":"acme/payroll","title":"Raise for Bob"}';
    expect(keyedArgsDigest(args, keyA)).toBe(toBase64Url(sodium.crypto_generichash(32, canonical, fromBase64Url(keyA))));
  });

  it("is not the plain digest, so the audit file's reader cannot confirm a guess of the args without the key", () => {
    const key = generateSecretKey();
    const written = keyedArgsDigest(args, key);
    expect(written).not.toBe(argsDigest(args));
    // The attack of finding 13: guess candidate args, digest each, compare with what the audit line holds.
    const guesses = [40000, 50000, 60000, 70000, 80000, 90000].map((amount) => ({ ...args, body: `from 50000 to ${amount}` }));
    expect(guesses.some((guess) => argsDigest(guess) === written)).toBe(false);
    expect(guesses.filter((guess) => keyedArgsDigest(guess, key) === written)).toHaveLength(1);
  });

  it("refuses a key that is not 32 bytes of unpadded base64url (malformed)", () => {
    expect(refusal(() => keyedArgsDigest(args, "short"))).toBe("malformed");
    expect(refusal(() => keyedArgsDigest(args, toBase64Url(new Uint8Array(16))))).toBe("malformed");
  });
});
