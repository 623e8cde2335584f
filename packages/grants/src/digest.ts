import { canonicalJson } from "@eleven-integrations/schema";
import { toBase64Url } from "./base64url.js";
import { lib } from "./sodium.js";

const encoder = new TextEncoder();

/** BLAKE2b-256 of the UTF-8 of `text`, as unpadded base64url. */
export function blake2b256Base64Url(text: string): string {
  return toBase64Url(lib().crypto_generichash(32, encoder.encode(text), null));
}

/**
 * The digest a confirmation binds its args with: BLAKE2b-256 of the RFC 8785
 * canonical JSON of `args`, unpadded base64url. Key order does not matter; an
 * added, removed or changed arg changes it.
 */
export function argsDigest(args: Record<string, string>): string {
  return blake2b256Base64Url(canonicalJson(args));
}
