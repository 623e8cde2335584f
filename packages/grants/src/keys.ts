import { decodeKey, toBase64Url } from "./base64url.js";
import { GrantError } from "./grant-error.js";
import { lib } from "./sodium.js";

/** A key pair, both halves unpadded base64url. */
export interface KeyPair {
  publicKey: string;
  secretKey: string;
}

/** A member's Ed25519 signing keys: a 32-byte public key and libsodium's 64-byte secret key (seed then public key). */
export function generateMemberKeys(): KeyPair {
  const pair = lib().crypto_sign_keypair();
  return { publicKey: toBase64Url(pair.publicKey), secretKey: toBase64Url(pair.privateKey) };
}

/** A bot's X25519 box keys, 32 bytes each: members seal grants to the public one. */
export function generateBotKeys(): KeyPair {
  const pair = lib().crypto_box_keypair();
  return { publicKey: toBase64Url(pair.publicKey), secretKey: toBase64Url(pair.privateKey) };
}

/** The member's secret signing key, refused unless its embedded public key is `member.publicKey`. */
export function memberSigningKey(member: KeyPair): { publicKey: Uint8Array; secretKey: Uint8Array } {
  const publicKey = decodeKey(member.publicKey, 32, "member public key");
  const secretKey = decodeKey(member.secretKey, 64, "member secret key");
  if (!lib().memcmp(secretKey.subarray(32), publicKey)) {
    throw new GrantError("malformed", "member secret key does not belong to the member public key");
  }
  return { publicKey, secretKey };
}
