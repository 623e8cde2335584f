import { decodeKey, transientFromBase64Url } from "./base64url.js";
import { GrantError } from "./grant-error.js";
import { isUnixSeconds } from "./grant-payload.js";
import { SUBSCRIPTION_PREFIX } from "./issue-subscription.js";
import type { KeyPair } from "./keys.js";
import { CLOCK_SKEW_SECONDS, MAX_SUBSCRIPTION_LENGTH, MAX_SUBSCRIPTION_TTL_SECONDS, unixNow } from "./limits.js";
import { openBox } from "./seal.js";
import { SUBSCRIPTION_CONTEXT, transientSignedMessage } from "./signed-message.js";
import { lib } from "./sodium.js";
import { parseJsonObject, requireCanonical } from "./strict-json.js";
import { checkSubscriptionPayload, subscriptionJson, type Subscription } from "./subscription-payload.js";

const SEAL_OVERHEAD = 48;
const SIGNATURE_BYTES = 64;

export interface OpenSubscriptionOptions {
  /** This bot's X25519 box keys. */
  bot: KeyPair;
  /** Ed25519 public keys of the members whose subscriptions this bot accepts. */
  trustedMembers: string[];
  /** Unix seconds; defaults to the clock. */
  now?: number;
}

/**
 * Opens and verifies an event subscription, in `openApproval`'s order: at most 16 KiB, `es1.`
 * and base64url (`malformed`), this bot can open it (`not_for_this_bot`), a strictly parsed
 * canonical payload (`malformed`), a trusted member (`untrusted_member`), that member's signature
 * over payload and audience with context `eleven.subscription.v1` (`bad_signature`), addressed
 * to this bot (`not_for_this_bot`), `exp - iat` at most 30 days (`ttl_too_long`), `iat` not after
 * now (`not_yet_valid`), `exp` after now (`expired`), with 60 seconds of clock skew.
 * Returns the payload; the caller checks the events against the manifest.
 */
export function openSubscription(sealed: string, options: OpenSubscriptionOptions): Subscription {
  if (typeof sealed !== "string" || sealed.length > MAX_SUBSCRIPTION_LENGTH) {
    throw new GrantError("malformed", `a subscription is at most ${MAX_SUBSCRIPTION_LENGTH} characters`);
  }
  if (!sealed.startsWith(SUBSCRIPTION_PREFIX)) throw new GrantError("malformed", `a subscription starts with ${SUBSCRIPTION_PREFIX}`);
  const now = options.now ?? unixNow();
  if (!isUnixSeconds(now)) throw new GrantError("malformed", "now must be Unix seconds");
  const box = transientFromBase64Url(sealed, SUBSCRIPTION_PREFIX.length);
  if (box.length <= SEAL_OVERHEAD + SIGNATURE_BYTES) throw new GrantError("malformed", "subscription is too short");
  const botPublicKey = decodeKey(options.bot.publicKey, 32, "bot public key");
  const botSecretKey = decodeKey(options.bot.secretKey, 32, "bot secret key");

  const opened = openBox(box, botPublicKey, botSecretKey);
  const signature = opened.subarray(0, SIGNATURE_BYTES);
  const payload = opened.subarray(SIGNATURE_BYTES);
  const { object, text } = parseJsonObject(payload, "subscription payload");
  const subscription = checkSubscriptionPayload(object);
  requireCanonical(text, subscriptionJson(subscription), "subscription payload");

  if (!options.trustedMembers.includes(subscription.iss)) {
    throw new GrantError("untrusted_member", "the subscription was issued by a member this bot does not trust");
  }
  const memberKey = decodeKey(subscription.iss, 32, "member public key");
  const audience = decodeKey(subscription.aud, 32, "bot public key");
  const message = transientSignedMessage([SUBSCRIPTION_CONTEXT, audience, payload]);
  if (!lib().crypto_sign_verify_detached(signature, message, memberKey)) {
    throw new GrantError("bad_signature", "the subscription's signature does not verify");
  }
  if (subscription.aud !== options.bot.publicKey) throw new GrantError("not_for_this_bot", "the subscription was issued to another bot");
  if (subscription.exp - subscription.iat > MAX_SUBSCRIPTION_TTL_SECONDS) {
    throw new GrantError("ttl_too_long", `the subscription lives longer than ${MAX_SUBSCRIPTION_TTL_SECONDS} seconds`);
  }
  if (subscription.iat > now + CLOCK_SKEW_SECONDS) throw new GrantError("not_yet_valid", "the subscription was issued in the future");
  if (subscription.exp + CLOCK_SKEW_SECONDS <= now) throw new GrantError("expired", "the subscription has expired");
  return subscription;
}
