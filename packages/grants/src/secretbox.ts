import { decodeKey, fromBase64Url, toBase64Url } from "./base64url.js";
import { concatBytes } from "./signed-message.js";
import { toBytes } from "./seal.js";
import { lib } from "./sodium.js";

const NONCE_BYTES = 24;
const MAC_BYTES = 16;

/** 32 random bytes, unpadded base64url: a key for `secretboxSeal`. */
export function generateSecretKey(): string {
  return toBase64Url(lib().randombytes_buf(32));
}

/**
 * Encrypts and authenticates `plaintext` with `crypto_secretbox` under a 32-byte
 * key; a random 24-byte nonce is prepended. Returns unpadded base64url.
 */
export function secretboxSeal(plaintext: Uint8Array | string, key: string): string {
  const sodium = lib();
  const secret = decodeKey(key, 32, "secretbox key");
  const nonce = sodium.randombytes_buf(NONCE_BYTES);
  return toBase64Url(concatBytes(nonce, sodium.crypto_secretbox_easy(toBytes(plaintext), nonce, secret)));
}

/**
 * Opens a `secretboxSeal` value with the first key that authenticates it (list
 * the current key first, then older ones kept for rotation). Returns undefined
 * for anything that does not open: altered, foreign, or not base64url. A key
 * that is not 32 bytes of unpadded base64url throws `GrantError` `malformed`.
 */
export function secretboxOpen(box: string, keys: string[]): Uint8Array | undefined {
  const sodium = lib();
  const secrets = keys.map((key) => decodeKey(key, 32, "secretbox key"));
  let bytes: Uint8Array;
  try {
    bytes = fromBase64Url(box);
  } catch {
    return undefined;
  }
  if (bytes.length < NONCE_BYTES + MAC_BYTES) return undefined;
  const nonce = bytes.subarray(0, NONCE_BYTES);
  const ciphertext = bytes.subarray(NONCE_BYTES);
  for (const secret of secrets) {
    try {
      return sodium.crypto_secretbox_open_easy(ciphertext, nonce, secret);
    } catch {
      // not this key: try the next one
    }
  }
  return undefined;
}
