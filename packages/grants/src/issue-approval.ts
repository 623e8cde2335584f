import { decodeKey, toBase64Url } from "./base64url.js";
import { checkApprovalPayload, approvalJson, type Approval, type ArgConstraint, type ApprovalBudget } from "./approval-payload.js";
import { blake2b256Base64Url } from "./digest.js";
import { GrantError } from "./grant-error.js";
import { isUnixSeconds } from "./grant-payload.js";
import { memberSigningKey, type KeyPair } from "./keys.js";
import { MAX_APPROVAL_LENGTH, MAX_APPROVAL_TTL_SECONDS, unixNow } from "./limits.js";
import { APPROVAL_CONTEXT, concatBytes, signedMessage } from "./signed-message.js";
import { lib } from "./sodium.js";
import { utf8 } from "./text-bytes.js";

/** Prefix of every standing approval token. */
export const APPROVAL_PREFIX = "ea1.";

export interface IssueApprovalInput {
  /** The member's Ed25519 signing keys. */
  member: KeyPair;
  /** The bot's X25519 public key: only that bot can open the approval, and it names it. */
  botPublicKey: string;
  integration: string;
  /** Lowercase hex hash of the manifest the member was shown. */
  manifestHash: string;
  /** The one write op approved. */
  op: string;
  /** The room every arg of the op has. */
  args: Record<string, ArgConstraint>;
  budget: ApprovalBudget;
  /** The line the member saw (`renderApprovalLine`): only its BLAKE2b-256 digest is signed. */
  line: string;
  /** Limits the approval to writes made in answer to one event type. */
  event?: string;
  /** Life of the approval in seconds, 1 to 30 days; longer is refused (`ttl_too_long`), never clamped. */
  ttlSeconds: number;
  /** Unix seconds; defaults to the clock. */
  now?: number;
}

/** The signature and canonical payload bytes of an approval, before sealing. */
function signApprovalPayload(approval: Approval, memberSecretKey: Uint8Array): { signature: Uint8Array; payload: Uint8Array } {
  const payload = utf8(approvalJson(approval));
  const audience = decodeKey(approval.aud, 32, "bot public key");
  const signature = lib().crypto_sign_detached(signedMessage([APPROVAL_CONTEXT, audience, payload]), memberSecretKey);
  return { signature, payload };
}

/**
 * Issues a standing approval (`ea1.<b64url>`): the member signs the payload
 * (context `eleven.approval.v1`, over the bot's key and the payload, like a
 * grant) and seals signature and payload to the bot. Throws `GrantError`
 * (`malformed` for bad input, `ttl_too_long` for `ttlSeconds` over 30 days).
 */
export function issueApproval(input: IssueApprovalInput): string {
  const sodium = lib();
  const { ttlSeconds } = input;
  if (typeof ttlSeconds !== "number" || !Number.isSafeInteger(ttlSeconds) || ttlSeconds < 1) {
    throw new GrantError("malformed", "ttlSeconds must be a positive whole number of seconds");
  }
  if (ttlSeconds > MAX_APPROVAL_TTL_SECONDS) {
    throw new GrantError("ttl_too_long", `ttlSeconds is over ${MAX_APPROVAL_TTL_SECONDS}`);
  }
  const now = input.now ?? unixNow();
  if (!isUnixSeconds(now)) throw new GrantError("malformed", "now must be Unix seconds");
  if (typeof input.line !== "string" || input.line.length === 0) throw new GrantError("malformed", "line must be the non-empty line the member saw");
  const member = memberSigningKey(input.member);
  const botPublicKey = decodeKey(input.botPublicKey, 32, "bot public key");

  const draft: Record<string, unknown> = {
    v: 1,
    typ: "approval",
    aid: toBase64Url(sodium.randombytes_buf(16)),
    iss: input.member.publicKey,
    aud: input.botPublicKey,
    integration: input.integration,
    manifest_hash: input.manifestHash,
    op: input.op,
    args: input.args,
    budget: input.budget,
    line_digest: blake2b256Base64Url(input.line),
    iat: now,
    exp: now + ttlSeconds,
  };
  if (input.event !== undefined) draft["event"] = input.event;
  const approval = checkApprovalPayload(draft);

  const { signature, payload } = signApprovalPayload(approval, member.secretKey);
  const token = APPROVAL_PREFIX + toBase64Url(sodium.crypto_box_seal(concatBytes(signature, payload), botPublicKey));
  if (token.length > MAX_APPROVAL_LENGTH) throw new GrantError("malformed", `the approval would be over ${MAX_APPROVAL_LENGTH} characters`);
  return token;
}
