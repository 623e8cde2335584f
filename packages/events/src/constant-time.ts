import { createHmac, timingSafeEqual } from "node:crypto";

export type HmacAlgorithm = "sha1" | "sha256";

export function hmac(algorithm: HmacAlgorithm, key: string | Uint8Array, ...parts: (string | Uint8Array)[]): Buffer {
  const mac = createHmac(algorithm, key);
  for (const part of parts) mac.update(part);
  return mac.digest();
}

/** Equal bytes, compared in constant time; different lengths are unequal without comparing. */
export function sameBytes(expected: Uint8Array, given: Uint8Array): boolean {
  if (expected.length !== given.length || expected.length === 0) return false;
  return timingSafeEqual(expected, given);
}

const HEX = /^[0-9a-fA-F]+$/;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** A hex signature's bytes, or null when it is not hex of the expected length. */
export function hexBytes(text: string, length: number): Buffer | null {
  if (text.length !== length * 2 || !HEX.test(text)) return null;
  return Buffer.from(text, "hex");
}

/** A base64 signature's bytes, or null when it is not base64 of the expected length. */
export function base64Bytes(text: string, length: number): Buffer | null {
  if (!BASE64.test(text) || text.length % 4 !== 0) return null;
  const bytes = Buffer.from(text, "base64");
  return bytes.length === length ? bytes : null;
}

/** Whether a hex HMAC over the parts matches one of the given signatures under one of the keys. */
export function anyHexMatches(
  algorithm: HmacAlgorithm,
  keys: readonly (string | Uint8Array)[],
  signatures: readonly string[],
  parts: (string | Uint8Array)[],
): boolean {
  return anyMatches(algorithm, keys, signatures, parts, hexBytes);
}

export function anyBase64Matches(
  algorithm: HmacAlgorithm,
  keys: readonly (string | Uint8Array)[],
  signatures: readonly string[],
  parts: (string | Uint8Array)[],
): boolean {
  return anyMatches(algorithm, keys, signatures, parts, base64Bytes);
}

function anyMatches(
  algorithm: HmacAlgorithm,
  keys: readonly (string | Uint8Array)[],
  signatures: readonly string[],
  parts: (string | Uint8Array)[],
  decode: (text: string, length: number) => Buffer | null,
): boolean {
  const length = algorithm === "sha1" ? 20 : 32;
  const given = signatures.map((signature) => decode(signature, length)).filter((bytes): bytes is Buffer => bytes !== null);
  let matched = false;
  // Every key against every signature, no early exit: the time taken does not say which one matched.
  for (const key of keys) {
    const expected = hmac(algorithm, key, ...parts);
    for (const bytes of given) if (sameBytes(expected, bytes)) matched = true;
  }
  return matched;
}

/** Constant-time equality of two strings' UTF-8 bytes (for shared secrets sent back verbatim, like Graph's clientState). */
export function sameText(expected: string, given: string): boolean {
  return sameBytes(Buffer.from(expected, "utf8"), Buffer.from(given, "utf8"));
}
