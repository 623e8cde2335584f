import { decodeKey, fromBase64Url, toBase64Url } from "./base64url.js";
import { GrantError } from "./grant-error.js";
import type { KeyPair } from "./keys.js";
import { lib } from "./sodium.js";
import { utf8 } from "./text-bytes.js";

const SEAL_OVERHEAD = 48;

/** Text as UTF-8, bytes as they are. */
export function toBytes(plaintext: Uint8Array | string): Uint8Array {
  return typeof plaintext === "string" ? utf8(plaintext) : plaintext;
}

/**
 * Seals `plaintext` to an X25519 public key with `crypto_box_seal` (anonymous
 * sender): only the holder of the matching secret key can open it. Returns
 * unpadded base64url.
 */
export function sealToPublicKey(plaintext: Uint8Array | string, publicKey: string): string {
  const key = decodeKey(publicKey, 32, "public key");
  return toBase64Url(lib().crypto_box_seal(toBytes(plaintext), key));
}

/**
 * Opens what `sealToPublicKey` sealed to `keys.publicKey`. Throws `GrantError`:
 * `malformed` for bad base64url or a value too short to be sealed,
 * `not_for_this_bot` when these keys cannot open it (another recipient, or altered).
 */
export function openSealed(sealed: string, keys: KeyPair): Uint8Array {
  const box = fromBase64Url(sealed);
  const publicKey = decodeKey(keys.publicKey, 32, "public key");
  const secretKey = decodeKey(keys.secretKey, 32, "secret key");
  if (box.length < SEAL_OVERHEAD) throw new GrantError("malformed", "sealed value is too short");
  return openBox(box, publicKey, secretKey);
}

/** `crypto_box_seal_open`, its failure as `not_for_this_bot`. */
export function openBox(box: Uint8Array, publicKey: Uint8Array, secretKey: Uint8Array): Uint8Array {
  try {
    return lib().crypto_box_seal_open(box, publicKey, secretKey);
  } catch {
    throw new GrantError("not_for_this_bot", "sealed to another key, or altered");
  }
}
