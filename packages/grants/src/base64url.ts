import { GrantError } from "./grant-error.js";
import { lib } from "./sodium.js";

const ALPHABET = /^[A-Za-z0-9_-]*$/;
const DIGITS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/** Unpadded base64url (RFC 4648 section 5) of `bytes`. */
export function toBase64Url(bytes: Uint8Array): string {
  const sodium = lib();
  return sodium.to_base64(bytes, sodium.base64_variants.URLSAFE_NO_PADDING);
}

/**
 * Decodes unpadded base64url strictly: no padding, whitespace or standard-alphabet
 * characters, and no stray bits in the last character, so every byte string has
 * exactly one spelling. Throws `GrantError` `malformed` otherwise.
 */
export function fromBase64Url(text: string): Uint8Array {
  const sodium = lib();
  if (typeof text !== "string" || !ALPHABET.test(text)) throw new GrantError("malformed", "not unpadded base64url");
  try {
    return sodium.from_base64(text, sodium.base64_variants.URLSAFE_NO_PADDING);
  } catch {
    throw new GrantError("malformed", "not unpadded base64url");
  }
}

/**
 * Decodes a key (or any fixed-size value) given as unpadded base64url, refusing
 * any other length. The error names `what`, never the value.
 */
export function decodeKey(key: string, bytes: number, what: string): Uint8Array {
  let decoded: Uint8Array | undefined;
  try {
    decoded = fromBase64Url(key);
  } catch {
    decoded = undefined;
  }
  if (decoded?.length !== bytes) {
    throw new GrantError("malformed", `${what} must be unpadded base64url of ${bytes} bytes`);
  }
  return decoded;
}

/**
 * True when `text` is the one unpadded base64url spelling of some `bytes`-long
 * value (right length, alphabet, no stray bits), checked without decoding.
 */
export function isBase64UrlOf(text: unknown, bytes: number): text is string {
  if (typeof text !== "string") return false;
  const chars = Math.ceil((bytes * 8) / 6);
  if (text.length !== chars || !ALPHABET.test(text)) return false;
  const strayBits = chars * 6 - bytes * 8;
  if (strayBits === 0) return true;
  return DIGITS.indexOf(text.charAt(chars - 1)) % (1 << strayBits) === 0;
}
