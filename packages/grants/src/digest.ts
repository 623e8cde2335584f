import { canonicalJson, type ArgValue } from "@eleven-integrations/schema";
import { decodeKey, toBase64Url } from "./base64url.js";
import { lib } from "./sodium.js";
import { utf8 } from "./text-bytes.js";

/** BLAKE2b-256 of the UTF-8 of `text`, as unpadded base64url. */
export function blake2b256Base64Url(text: string): string {
  return toBase64Url(blake2b256(text));
}

/** BLAKE2b-256 of the UTF-8 of `text`. */
export function blake2b256(text: string): Uint8Array {
  return lib().crypto_generichash(32, utf8(text), null);
}

/**
 * The digest a confirmation binds its args with: BLAKE2b-256 of the RFC 8785
 * canonical JSON of `args`, unpadded base64url. Key order does not matter; an
 * added, removed or changed arg changes it.
 */
export function argsDigest(args: Readonly<Record<string, ArgValue>>): string {
  return toBase64Url(argsDigestBytes(args));
}

/**
 * What a receipt's `result_digest` is: BLAKE2b-256 of the RFC 8785 JSON of an
 * envelope's `data`, unpadded base64url. An envelope without data (an error)
 * digests as JSON `null`.
 */
export function resultDigest(data: unknown): string {
  return toBase64Url(blake2b256(canonicalJson(data === undefined ? null : data)));
}

/**
 * The args digest an audit line may carry: keyed BLAKE2b-256 (`crypto_generichash`
 * with a 32-byte key, a MAC) of the RFC 8785 JSON of `args`, unpadded base64url.
 * Unlike `argsDigest`, whoever reads the audit file cannot confirm a guess of the
 * args without the key. `key` is 32 bytes of unpadded base64url (`generateSecretKey()`).
 * Throws `GrantError` `malformed` for a bad key.
 */
export function keyedArgsDigest(args: Readonly<Record<string, ArgValue>>, key: string): string {
  const keyBytes = auditDigestKey(key);
  return toBase64Url(lib().crypto_generichash(32, utf8(flatArgsJson(args) ?? canonicalJson(args)), keyBytes));
}

// The sidecar digests every run's args under its one audit key: decoded once, not per line.
let lastAuditKey: { text: string; bytes: Uint8Array } | undefined;

function auditDigestKey(key: string): Uint8Array {
  if (lastAuditKey?.text === key) return lastAuditKey.bytes;
  const bytes = decodeKey(key, 32, "audit digest key");
  lastAuditKey = { text: key, bytes };
  return bytes;
}

/** `argsDigest` as raw bytes. */
export function argsDigestBytes(args: Readonly<Record<string, ArgValue>>): Uint8Array {
  return blake2b256(flatArgsJson(args) ?? canonicalJson(args));
}

/**
 * RFC 8785 JSON of a plain record of strings, or undefined for anything else
 * (left to the general `canonicalJson`). For such a record the two agree: keys
 * sorted by UTF-16 code units, strings escaped as `JSON.stringify` does.
 */
function flatArgsJson(args: Readonly<Record<string, ArgValue>>): string | undefined {
  if (typeof args !== "object" || args === null) return undefined;
  const prototype: unknown = Object.getPrototypeOf(args);
  if (prototype !== Object.prototype && prototype !== null) return undefined;
  const keys = Object.keys(args);
  let sorted = true;
  for (let index = 0; index < keys.length; index++) {
    if (typeof args[keys[index] as string] !== "string") return undefined;
    if (index > 0 && !((keys[index - 1] as string) < (keys[index] as string))) sorted = false;
  }
  // Already in code-unit order (as a client that canonicalises sends them): JSON.stringify writes exactly that.
  if (sorted) return JSON.stringify(args);
  keys.sort();
  let json = "{";
  for (let index = 0; index < keys.length; index++) {
    const key = keys[index] as string;
    json += `${index === 0 ? "" : ","}${quote(key)}:${quote(args[key] as unknown as string)}`;
  }
  return `${json}}`;
}

/** `JSON.stringify(text)`, skipped when nothing in `text` needs escaping. */
function quote(text: string): string {
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code < 0x20 || code === 0x22 || code === 0x5c || (code >= 0xd800 && code <= 0xdfff)) return JSON.stringify(text);
  }
  return `"${text}"`;
}
