import { checkApprovalPayload, approvalJson, type Approval } from "./approval-payload.js";
import { decodeKey, transientFromBase64Url } from "./base64url.js";
import { GrantError } from "./grant-error.js";
import { isUnixSeconds } from "./grant-payload.js";
import { APPROVAL_PREFIX } from "./issue-approval.js";
import type { KeyPair } from "./keys.js";
import { CLOCK_SKEW_SECONDS, MAX_APPROVAL_LENGTH, MAX_APPROVAL_TTL_SECONDS, unixNow } from "./limits.js";
import { openBox } from "./seal.js";
import { APPROVAL_CONTEXT, transientSignedMessage } from "./signed-message.js";
import { lib } from "./sodium.js";
import { parseJsonObject, requireCanonical } from "./strict-json.js";

const SEAL_OVERHEAD = 48;
const SIGNATURE_BYTES = 64;

export interface OpenApprovalOptions {
  /** This bot's X25519 box keys. */
  bot: KeyPair;
  /** Ed25519 public keys of the members whose approvals this bot accepts. */
  trustedMembers: string[];
  /** Unix seconds; defaults to the clock. */
  now?: number;
}

/**
 * Opens and verifies a standing approval, in `openGrant`'s order: at most
 * 16 KiB, `ea1.` and base64url (`malformed`), this bot can open it
 * (`not_for_this_bot`), a strictly parsed canonical payload (`malformed`), a
 * trusted member (`untrusted_member`), that member's signature over payload and
 * audience with context `eleven.approval.v1` (`bad_signature`), addressed to this
 * bot (`not_for_this_bot`), `exp - iat` at most 30 days (`ttl_too_long`), `iat`
 * not after now (`not_yet_valid`), `exp` after now (`expired`), with 60 seconds
 * of clock skew. Returns the payload; the caller checks op, args and budget.
 */
export function openApproval(sealed: string, options: OpenApprovalOptions): Approval {
  if (typeof sealed !== "string" || sealed.length > MAX_APPROVAL_LENGTH) {
    throw new GrantError("malformed", `an approval is at most ${MAX_APPROVAL_LENGTH} characters`);
  }
  if (!sealed.startsWith(APPROVAL_PREFIX)) throw new GrantError("malformed", `an approval starts with ${APPROVAL_PREFIX}`);
  const now = options.now ?? unixNow();
  if (!isUnixSeconds(now)) throw new GrantError("malformed", "now must be Unix seconds");
  const box = transientFromBase64Url(sealed, APPROVAL_PREFIX.length);
  if (box.length <= SEAL_OVERHEAD + SIGNATURE_BYTES) throw new GrantError("malformed", "approval is too short");
  const botPublicKey = decodeKey(options.bot.publicKey, 32, "bot public key");
  const botSecretKey = decodeKey(options.bot.secretKey, 32, "bot secret key");

  const opened = openBox(box, botPublicKey, botSecretKey);
  const signature = opened.subarray(0, SIGNATURE_BYTES);
  const payload = opened.subarray(SIGNATURE_BYTES);
  const { object, text } = parseJsonObject(payload, "approval payload");
  const approval = checkApprovalPayload(object);
  requireCanonical(text, approvalJson(approval), "approval payload");

  if (!options.trustedMembers.includes(approval.iss)) {
    throw new GrantError("untrusted_member", "the approval was issued by a member this bot does not trust");
  }
  const memberKey = decodeKey(approval.iss, 32, "member public key");
  const audience = decodeKey(approval.aud, 32, "bot public key");
  const message = transientSignedMessage([APPROVAL_CONTEXT, audience, payload]);
  if (!lib().crypto_sign_verify_detached(signature, message, memberKey)) {
    throw new GrantError("bad_signature", "the approval's signature does not verify");
  }
  if (approval.aud !== options.bot.publicKey) throw new GrantError("not_for_this_bot", "the approval was issued to another bot");
  if (approval.exp - approval.iat > MAX_APPROVAL_TTL_SECONDS) {
    throw new GrantError("ttl_too_long", `the approval lives longer than ${MAX_APPROVAL_TTL_SECONDS} seconds`);
  }
  if (approval.iat > now + CLOCK_SKEW_SECONDS) throw new GrantError("not_yet_valid", "the approval was issued in the future");
  if (approval.exp + CLOCK_SKEW_SECONDS <= now) throw new GrantError("expired", "the approval has expired");
  return approval;
}
