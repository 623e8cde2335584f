import { decodeKey, transientFromBase64Url } from "./base64url.js";
import { expiredGrantSummary, GrantError } from "./grant-error.js";
import { checkGrantPayload, grantJson, isUnixSeconds, type Grant } from "./grant-payload.js";
import { GRANT_PREFIX } from "./issue-grant.js";
import type { KeyPair } from "./keys.js";
import { CLOCK_SKEW_SECONDS, MAX_GRANT_LENGTH, MAX_GRANT_TTL_SECONDS, unixNow } from "./limits.js";
import { openBox } from "./seal.js";
import { GRANT_CONTEXT, transientSignedMessage } from "./signed-message.js";
import { lib } from "./sodium.js";
import { parseJsonObject, requireCanonical } from "./strict-json.js";

const SEAL_OVERHEAD = 48;
const SIGNATURE_BYTES = 64;

export interface OpenGrantOptions {
  /** This bot's X25519 box keys. */
  bot: KeyPair;
  /** Ed25519 public keys of the members whose grants this bot accepts; a key carried in a grant is never trusted by itself. */
  trustedMembers: string[];
  /** Unix seconds; defaults to the clock. */
  now?: number;
}

/**
 * Opens and verifies a grant, in this order: at most 16 KiB (`malformed`,
 * before any crypto), the `eg1.` prefix and base64url (`malformed`), this bot
 * can open it (`not_for_this_bot`), a strictly parsed payload (`malformed`),
 * issued by a trusted member (`untrusted_member`), signed by that member over
 * this payload and audience (`bad_signature`), addressed to this bot
 * (`not_for_this_bot`), `exp - iat` at most an hour (`ttl_too_long`), `iat` not
 * after now (`not_yet_valid`) and `exp` after now (`expired`), both with 60
 * seconds of clock skew. Returns the payload; the caller enforces its access.
 */
export function openGrant(sealed: string, options: OpenGrantOptions): Grant {
  if (typeof sealed !== "string" || sealed.length > MAX_GRANT_LENGTH) {
    throw new GrantError("malformed", `a grant is at most ${MAX_GRANT_LENGTH} characters`);
  }
  if (!sealed.startsWith(GRANT_PREFIX)) throw new GrantError("malformed", `a grant starts with ${GRANT_PREFIX}`);
  const now = options.now ?? unixNow();
  if (!isUnixSeconds(now)) throw new GrantError("malformed", "now must be Unix seconds");
  // The sealed box is not secret; it is decoded into a reused buffer and copied by libsodium.
  const box = transientFromBase64Url(sealed, GRANT_PREFIX.length);
  if (box.length <= SEAL_OVERHEAD + SIGNATURE_BYTES) throw new GrantError("malformed", "grant is too short");
  const botPublicKey = decodeKey(options.bot.publicKey, 32, "bot public key");
  const botSecretKey = decodeKey(options.bot.secretKey, 32, "bot secret key");

  const opened = openBox(box, botPublicKey, botSecretKey);
  const signature = opened.subarray(0, SIGNATURE_BYTES);
  const payload = opened.subarray(SIGNATURE_BYTES);
  const { object, text } = parseJsonObject(payload, "grant payload");
  const grant = checkGrantPayload(object);
  requireCanonical(text, grantJson(grant), "grant payload");

  if (!options.trustedMembers.includes(grant.iss)) {
    throw new GrantError("untrusted_member", "the grant was issued by a member this bot does not trust");
  }
  const sodium = lib();
  const memberKey = decodeKey(grant.iss, 32, "member public key");
  const audience = decodeKey(grant.aud, 32, "bot public key");
  const message = transientSignedMessage([GRANT_CONTEXT, audience, payload]);
  let verified: boolean;
  try {
    verified = sodium.crypto_sign_verify_detached(signature, message, memberKey);
  } finally {
    // The payload holds the member's credential: leave no copy in the reused buffer.
    message.fill(0);
  }
  if (!verified) throw new GrantError("bad_signature", "the grant's signature does not verify");
  if (grant.aud !== options.bot.publicKey) {
    throw new GrantError("not_for_this_bot", "the grant was issued to another bot");
  }
  if (grant.exp - grant.iat > MAX_GRANT_TTL_SECONDS) {
    throw new GrantError("ttl_too_long", `the grant lives longer than ${MAX_GRANT_TTL_SECONDS} seconds`);
  }
  if (grant.iat > now + CLOCK_SKEW_SECONDS) throw new GrantError("not_yet_valid", "the grant was issued in the future");
  if (grant.exp + CLOCK_SKEW_SECONDS <= now) throw new GrantError("expired", "the grant has expired", expiredGrantSummary(grant));
  return grant;
}
