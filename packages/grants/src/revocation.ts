import { fromBase64Url, isBase64UrlOf, toBase64Url } from "./base64url.js";
import { GrantError } from "./grant-error.js";
import { isUnixSeconds, type Grant } from "./grant-payload.js";
import { GRANT_PREFIX } from "./issue-grant.js";
import { memberSigningKey, type KeyPair } from "./keys.js";
import { CLOCK_SKEW_SECONDS, MAX_APPROVAL_LENGTH, MAX_GRANT_LENGTH, MAX_REVOCATION_LENGTH, MAX_SUBSCRIPTION_LENGTH, unixNow } from "./limits.js";
import { openGrant } from "./open-grant.js";
import { openApproval } from "./open-approval.js";
import type { Approval } from "./approval-payload.js";
import { APPROVAL_PREFIX } from "./issue-approval.js";
import { SUBSCRIPTION_PREFIX } from "./issue-subscription.js";
import { openSubscription } from "./open-subscription.js";
import type { Subscription } from "./subscription-payload.js";
import { concatBytes, REVOKE_CONTEXT, signedMessage } from "./signed-message.js";
import { lib } from "./sodium.js";
import { checkKeys, parseJsonObject, requireCanonical } from "./strict-json.js";
import { utf8 } from "./text-bytes.js";

/** Prefix of every revocation token. */
export const REVOCATION_PREFIX = "er1.";

const SIGNATURE_BYTES = 64;
// A sealed grant (`eg1.`) or standing approval (`ea1.`) and unpadded base64url: nothing in it needs escaping in JSON.
const SEALED_GRANT = /^eg1\.[A-Za-z0-9_-]+$/;
const SEALED_APPROVAL = /^ea1\.[A-Za-z0-9_-]+$/;
const SEALED_SUBSCRIPTION = /^es1\.[A-Za-z0-9_-]+$/;
// A sealed subscription holds at least the seal's 48 bytes, a 64-byte signature and a payload: anything shorter is not one.
const MIN_SEALED_LENGTH = 4 + Math.ceil(((48 + 64 + 1) * 4) / 3);

/** The signed payload of a revocation: the sealed grant it ends, and when the member signed it. */
export interface RevocationPayload {
  v: 1;
  typ: "revocation";
  /** The sealed grant (`eg1.`) or standing approval (`ea1.`) being revoked, exactly as the member issued it. */
  grant: string;
  /** Signed at, Unix seconds. */
  iat: number;
}

export interface SignRevocationInput {
  /** The member who issued the grant; no one else's revocation verifies. */
  member: KeyPair;
  /** The sealed grant (`eg1.`), standing approval (`ea1.`) or subscription (`es1.`) to revoke, as issued. */
  grant: string;
  /** Unix seconds; defaults to the clock. */
  now?: number;
}

export interface VerifyRevocationOptions {
  /** The bot the grant was sealed to: only it can open the grant and learn its `gid`. */
  bot: KeyPair;
  /** Members whose grants this bot accepts; the revocation must be signed by the grant's own member. */
  trustedMembers: string[];
  /** Unix seconds; defaults to the clock. */
  now?: number;
}

export interface VerifiedRevocation {
  /** The revoked grant, opened: `gid` is what to refuse, `exp` how long to remember it. */
  grant: Grant;
  /** When the member signed the revocation, Unix seconds. */
  iat: number;
}

function revocationJson(payload: RevocationPayload): string {
  return `{"grant":"${payload.grant}","iat":${payload.iat},"typ":"revocation","v":1}`;
}

function checkSealedGrant(grant: unknown): string {
  if (typeof grant === "string" && grant.length <= MAX_GRANT_LENGTH && grant.startsWith(GRANT_PREFIX) && SEALED_GRANT.test(grant)) return grant;
  if (typeof grant === "string" && grant.length <= MAX_APPROVAL_LENGTH && grant.startsWith(APPROVAL_PREFIX) && SEALED_APPROVAL.test(grant)) {
    return grant;
  }
  if (
    typeof grant === "string" &&
    grant.length >= MIN_SEALED_LENGTH &&
    grant.length <= MAX_SUBSCRIPTION_LENGTH &&
    grant.startsWith(SUBSCRIPTION_PREFIX) &&
    SEALED_SUBSCRIPTION.test(grant)
  ) {
    return grant;
  }
  throw new GrantError(
    "malformed",
    `a revocation names one sealed grant, approval or subscription (${GRANT_PREFIX}..., ${APPROVAL_PREFIX}... or ${SUBSCRIPTION_PREFIX}..., at most ${MAX_GRANT_LENGTH} characters)`,
  );
}

/**
 * Signs a revocation (`er1.<b64url(signature ‖ payload)>`): the member ends a
 * grant before it expires. The member cannot open the grant it sealed to the
 * bot, so the revocation carries the sealed grant itself; the bot opens it and
 * learns its `gid`. Signed with context `eleven.revoke.v1`, length-prefixed like
 * grants and confirmations. Throws `GrantError` `malformed`.
 */
export function signRevocation(input: SignRevocationInput): string {
  const now = input.now ?? unixNow();
  if (!isUnixSeconds(now)) throw new GrantError("malformed", "now must be Unix seconds");
  const member = memberSigningKey(input.member);
  const payload: RevocationPayload = { v: 1, typ: "revocation", grant: checkSealedGrant(input.grant), iat: now };
  const bytes = utf8(revocationJson(payload));
  const signature = lib().crypto_sign_detached(signedMessage([REVOKE_CONTEXT, bytes]), member.secretKey);
  return REVOCATION_PREFIX + toBase64Url(concatBytes(signature, bytes));
}

/**
 * Verifies a revocation, in this order: at most 24 KiB, `er1.`, base64url, a
 * canonical payload (`malformed`); the grant inside opens for this bot and a
 * trusted member (`openGrant`'s codes: an already expired grant is `expired`,
 * there is nothing left to revoke); the revocation is signed by that grant's
 * member (`bad_signature`), and not signed in the future (`not_yet_valid`).
 * Returns the opened grant; throws `GrantError`.
 */
export function verifyRevocation(token: string, options: VerifyRevocationOptions): VerifiedRevocation {
  const read = readRevocation(token, options.now);
  const grant = openGrant(read.payload.grant, { bot: options.bot, trustedMembers: options.trustedMembers, now: read.now });
  checkRevocationSignature(read, grant.iss);
  return { grant, iat: read.payload.iat };
}

/** A verified revocation of a standing approval: the approval, opened (`aid` is what to refuse, `exp` how long to remember it). */
export interface VerifiedApprovalRevocation {
  approval: Approval;
  iat: number;
}

/**
 * `verifyRevocation` for a revocation that names a sealed approval (`ea1.`):
 * the same checks, the approval opened with `openApproval` (its codes). A
 * revocation naming a grant is `malformed` here, as one naming an approval is
 * for `verifyRevocation`.
 */
export function verifyApprovalRevocation(token: string, options: VerifyRevocationOptions): VerifiedApprovalRevocation {
  const read = readRevocation(token, options.now);
  const approval = openApproval(read.payload.grant, { bot: options.bot, trustedMembers: options.trustedMembers, now: read.now });
  checkRevocationSignature(read, approval.iss);
  return { approval, iat: read.payload.iat };
}

/** A verified revocation of an event subscription: the subscription, opened (`sid` is what to end, `exp` how long to remember it). */
export interface VerifiedSubscriptionRevocation {
  subscription: Subscription;
  iat: number;
}

/**
 * `verifyRevocation` for a revocation that names a sealed subscription (`es1.`): the same checks,
 * the subscription opened with `openSubscription` (its codes). A revocation naming a grant or an
 * approval is `malformed` here.
 */
export function verifySubscriptionRevocation(token: string, options: VerifyRevocationOptions): VerifiedSubscriptionRevocation {
  const read = readRevocation(token, options.now);
  const subscription = openSubscription(read.payload.grant, { bot: options.bot, trustedMembers: options.trustedMembers, now: read.now });
  checkRevocationSignature(read, subscription.iss);
  return { subscription, iat: read.payload.iat };
}

interface ReadRevocation {
  payload: RevocationPayload;
  signature: Uint8Array;
  payloadBytes: Uint8Array;
  now: number;
}

function readRevocation(token: string, clock: number | undefined): ReadRevocation {
  if (typeof token !== "string" || token.length > MAX_REVOCATION_LENGTH) {
    throw new GrantError("malformed", `a revocation is at most ${MAX_REVOCATION_LENGTH} characters`);
  }
  if (!token.startsWith(REVOCATION_PREFIX)) throw new GrantError("malformed", `a revocation starts with ${REVOCATION_PREFIX}`);
  const now = clock ?? unixNow();
  if (!isUnixSeconds(now)) throw new GrantError("malformed", "now must be Unix seconds");
  const bytes = fromBase64Url(token.slice(REVOCATION_PREFIX.length));
  if (bytes.length <= SIGNATURE_BYTES) throw new GrantError("malformed", "revocation is too short");
  const signature = bytes.subarray(0, SIGNATURE_BYTES);
  const payloadBytes = bytes.subarray(SIGNATURE_BYTES);
  const { object, text } = parseJsonObject(payloadBytes, "revocation payload");
  checkKeys(object, ["v", "typ", "grant", "iat"], [], "revocation payload");
  if (object["v"] !== 1) throw new GrantError("malformed", "revocation payload: `v` must be 1");
  if (object["typ"] !== "revocation") throw new GrantError("malformed", 'revocation payload: `typ` must be "revocation"');
  const iat = object["iat"];
  if (!isUnixSeconds(iat)) throw new GrantError("malformed", "revocation payload: `iat` must be Unix seconds");
  const payload: RevocationPayload = { v: 1, typ: "revocation", grant: checkSealedGrant(object["grant"]), iat };
  requireCanonical(text, revocationJson(payload), "revocation payload");
  return { payload, signature, payloadBytes, now };
}

function checkRevocationSignature(read: ReadRevocation, member: string): void {
  if (!lib().crypto_sign_verify_detached(read.signature, signedMessage([REVOKE_CONTEXT, read.payloadBytes]), fromBase64Url(member))) {
    throw new GrantError("bad_signature", "the revocation was not signed by the grant's member");
  }
  if (read.payload.iat > read.now + CLOCK_SKEW_SECONDS) throw new GrantError("not_yet_valid", "the revocation was signed in the future");
}

/**
 * True when `token` is a revocation signed by `memberPublicKey` (the member's Ed25519
 * key, unpadded base64url): the signature over the payload as `signRevocation` made it,
 * checked without opening the grant inside (whoever checks needs no bot key). A broker
 * uses it to tell a member's revocation from anonymous junk before it spends a budget;
 * it proves who signed, not that the grant is this member's (`verifyRevocation` does).
 * Never throws: anything malformed is false.
 */
export function revocationSignedBy(token: string, memberPublicKey: string): boolean {
  if (typeof token !== "string" || token.length > MAX_REVOCATION_LENGTH || !token.startsWith(REVOCATION_PREFIX)) return false;
  if (!isBase64UrlOf(memberPublicKey, 32)) return false;
  let bytes: Uint8Array;
  try {
    bytes = fromBase64Url(token.slice(REVOCATION_PREFIX.length));
  } catch {
    return false;
  }
  if (bytes.length <= SIGNATURE_BYTES) return false;
  const payload = bytes.subarray(SIGNATURE_BYTES);
  return lib().crypto_sign_verify_detached(bytes.subarray(0, SIGNATURE_BYTES), signedMessage([REVOKE_CONTEXT, payload]), fromBase64Url(memberPublicKey));
}
