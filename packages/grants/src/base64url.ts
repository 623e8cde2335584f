import { GrantError } from "./grant-error.js";
import { charCodesToString } from "./text-bytes.js";

// Written out here rather than through libsodium's codec: a grant decodes
// several keys and a 600-character box, and crossing into WebAssembly for each
// cost more than the rest of the checks together.
const DIGITS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
const CODES = new Uint8Array(64);
const VALUES = new Int16Array(256).fill(-1);
for (let index = 0; index < DIGITS.length; index++) {
  CODES[index] = DIGITS.charCodeAt(index);
  VALUES[DIGITS.charCodeAt(index)] = index;
}
const ALPHABET = /^[A-Za-z0-9_-]*$/;

/** Unpadded base64url (RFC 4648 section 5) of `bytes`. */
export function toBase64Url(bytes: Uint8Array): string {
  const length = bytes.length;
  const out = new Uint8Array(Math.ceil((length * 4) / 3));
  const whole = length - (length % 3);
  let at = 0;
  for (let index = 0; index < whole; index += 3) {
    const group = ((bytes[index] as number) << 16) | ((bytes[index + 1] as number) << 8) | (bytes[index + 2] as number);
    out[at++] = CODES[group >> 18] as number;
    out[at++] = CODES[(group >> 12) & 63] as number;
    out[at++] = CODES[(group >> 6) & 63] as number;
    out[at++] = CODES[group & 63] as number;
  }
  if (length > whole) {
    const group = ((bytes[whole] as number) << 16) | ((bytes[whole + 1] ?? 0) << 8);
    out[at++] = CODES[group >> 18] as number;
    out[at++] = CODES[(group >> 12) & 63] as number;
    if (length - whole === 2) out[at++] = CODES[(group >> 6) & 63] as number;
  }
  return charCodesToString(out);
}

function refuse(): never {
  throw new GrantError("malformed", "not unpadded base64url");
}

/**
 * Decodes unpadded base64url strictly: no padding, whitespace or standard-alphabet
 * characters, and no stray bits in the last character, so every byte string has
 * exactly one spelling. Throws `GrantError` `malformed` otherwise.
 */
export function fromBase64Url(text: string): Uint8Array {
  if (typeof text !== "string") refuse();
  const bytes = new Uint8Array((text.length * 3) >> 2);
  decodeInto(text, 0, bytes);
  return bytes;
}

let scratch = new Uint8Array(4096);

/**
 * `fromBase64Url(text.slice(start))` into a buffer the next call reuses: for
 * bytes that are read at once (handed to libsodium, which copies them) and not
 * kept, so a hot path allocates nothing. Throws `GrantError` `malformed`.
 */
export function transientFromBase64Url(text: string, start: number): Uint8Array {
  const length = ((text.length - start) * 3) >> 2;
  if (scratch.length < length) scratch = new Uint8Array(Math.max(length, scratch.length * 2));
  return scratch.subarray(0, decodeInto(text, start, scratch));
}

/** Decodes `text` from `start` into `bytes` (long enough); returns the byte count. */
function decodeInto(text: string, start: number, bytes: Uint8Array): number {
  const chars = text.length - start;
  if (chars < 0 || chars % 4 === 1) refuse();
  const whole = start + chars - (chars % 4);
  let at = 0;
  for (let index = start; index < whole; index += 4) {
    const c0 = text.charCodeAt(index);
    const c1 = text.charCodeAt(index + 1);
    const c2 = text.charCodeAt(index + 2);
    const c3 = text.charCodeAt(index + 3);
    if ((c0 | c1 | c2 | c3) > 255) refuse();
    const a = VALUES[c0] as number;
    const b = VALUES[c1] as number;
    const c = VALUES[c2] as number;
    const d = VALUES[c3] as number;
    if ((a | b | c | d) < 0) refuse();
    const group = (a << 18) | (b << 12) | (c << 6) | d;
    bytes[at++] = group >> 16;
    bytes[at++] = (group >> 8) & 255;
    bytes[at++] = group & 255;
  }
  const rest = chars % 4;
  if (rest > 0) {
    const c0 = text.charCodeAt(whole);
    const c1 = text.charCodeAt(whole + 1);
    const c2 = rest === 3 ? text.charCodeAt(whole + 2) : 65;
    if ((c0 | c1 | c2) > 255) refuse();
    const a = VALUES[c0] as number;
    const b = VALUES[c1] as number;
    const c = VALUES[c2] as number;
    if ((a | b | c) < 0) refuse();
    // The last character's unused low bits must be zero: one spelling per value.
    if (rest === 2 ? (b & 15) !== 0 : (c & 3) !== 0) refuse();
    bytes[at++] = (a << 2) | (b >> 4);
    if (rest === 3) bytes[at++] = ((b & 15) << 4) | (c >> 2);
  }
  return at;
}

/**
 * Decodes a key (or any fixed-size value) given as unpadded base64url, refusing
 * any other length. The error names `what`, never the value.
 */
export function decodeKey(key: string, bytes: number, what: string): Uint8Array {
  if (!isBase64UrlOf(key, bytes)) {
    throw new GrantError("malformed", `${what} must be unpadded base64url of ${bytes} bytes`);
  }
  return fromBase64Url(key);
}

/**
 * True when `text` is the one unpadded base64url spelling of some `bytes`-long
 * value (right length, alphabet, no stray bits), checked without decoding.
 */
export function isBase64UrlOf(text: unknown, bytes: number): text is string {
  if (typeof text !== "string") return false;
  const chars = Math.ceil((bytes * 8) / 6);
  if (text.length !== chars || !ALPHABET.test(text)) return false;
  return hasNoStrayBits(text, bytes);
}

/**
 * True when the last character of `text`, already known to be base64url of the
 * length `bytes` needs, leaves the unused low bits zero (one spelling per value).
 */
export function hasNoStrayBits(text: string, bytes: number): boolean {
  const strayBits = text.length * 6 - bytes * 8;
  if (strayBits === 0) return true;
  return ((VALUES[text.charCodeAt(text.length - 1)] ?? -1) & ((1 << strayBits) - 1)) === 0;
}
