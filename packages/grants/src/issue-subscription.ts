import { decodeKey, toBase64Url } from "./base64url.js";
import { GrantError } from "./grant-error.js";
import { isUnixSeconds, type GrantAccount } from "./grant-payload.js";
import { memberSigningKey, type KeyPair } from "./keys.js";
import { MAX_SUBSCRIPTION_LENGTH, MAX_SUBSCRIPTION_TTL_SECONDS, unixNow } from "./limits.js";
import { SUBSCRIPTION_CONTEXT, concatBytes, signedMessage } from "./signed-message.js";
import { lib } from "./sodium.js";
import { checkSubscriptionPayload, subscriptionJson, type SubscriptionArgs } from "./subscription-payload.js";
import { utf8 } from "./text-bytes.js";

/** Prefix of every event subscription token. */
export const SUBSCRIPTION_PREFIX = "es1.";

export interface IssueSubscriptionInput {
  /** The member's Ed25519 signing keys. */
  member: KeyPair;
  /** The bot's X25519 public key: only that bot can open the subscription, and it names it. */
  botPublicKey: string;
  integration: string;
  /** Lowercase hex hash of the manifest whose events the member was shown. */
  manifestHash: string;
  /** The declared event ids to receive. */
  events: string[];
  /** Filter args (`{ repo: "octo/hello" }`), matched against the events' declared payload paths. */
  args?: SubscriptionArgs;
  /** The provider account whose events to receive. */
  account?: GrantAccount;
  /** Life of the subscription in seconds, 1 to 30 days; longer is refused (`ttl_too_long`), never clamped. */
  ttlSeconds: number;
  /** Unix seconds; defaults to the clock. */
  now?: number;
}

/**
 * Issues an event subscription (`es1.<b64url>`): the member signs the payload (context
 * `eleven.subscription.v1`, over the bot's key and the payload, like a grant) and seals signature
 * and payload to the bot. Throws `GrantError` (`malformed` for bad input, `ttl_too_long` for
 * `ttlSeconds` over 30 days).
 */
export function issueSubscription(input: IssueSubscriptionInput): string {
  const sodium = lib();
  const { ttlSeconds } = input;
  if (typeof ttlSeconds !== "number" || !Number.isSafeInteger(ttlSeconds) || ttlSeconds < 1) {
    throw new GrantError("malformed", "ttlSeconds must be a positive whole number of seconds");
  }
  if (ttlSeconds > MAX_SUBSCRIPTION_TTL_SECONDS) {
    throw new GrantError("ttl_too_long", `ttlSeconds is over ${MAX_SUBSCRIPTION_TTL_SECONDS}`);
  }
  const now = input.now ?? unixNow();
  if (!isUnixSeconds(now)) throw new GrantError("malformed", "now must be Unix seconds");
  const member = memberSigningKey(input.member);
  const botPublicKey = decodeKey(input.botPublicKey, 32, "bot public key");

  const draft: Record<string, unknown> = {
    v: 1,
    typ: "subscription",
    sid: toBase64Url(sodium.randombytes_buf(16)),
    iss: input.member.publicKey,
    aud: input.botPublicKey,
    integration: input.integration,
    manifest_hash: input.manifestHash,
    events: input.events,
    iat: now,
    exp: now + ttlSeconds,
  };
  if (input.args !== undefined) draft["args"] = input.args;
  if (input.account !== undefined) draft["account"] = input.account;
  const subscription = checkSubscriptionPayload(draft);

  const payload = utf8(subscriptionJson(subscription));
  const signature = sodium.crypto_sign_detached(signedMessage([SUBSCRIPTION_CONTEXT, botPublicKey, payload]), member.secretKey);
  const token = SUBSCRIPTION_PREFIX + toBase64Url(sodium.crypto_box_seal(concatBytes(signature, payload), botPublicKey));
  if (token.length > MAX_SUBSCRIPTION_LENGTH) throw new GrantError("malformed", `the subscription would be over ${MAX_SUBSCRIPTION_LENGTH} characters`);
  return token;
}
