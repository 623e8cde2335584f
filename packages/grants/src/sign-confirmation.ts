import type { ArgValue } from "@eleven-integrations/schema";
import { toBase64Url } from "./base64url.js";
import { checkConfirmationPayload, CONFIRMATION_PREFIX, confirmationJson, type ConfirmationPayload } from "./confirmation-payload.js";
import { argsDigest, blake2b256Base64Url } from "./digest.js";
import { GrantError } from "./grant-error.js";
import { isUnixSeconds, type Grant } from "./grant-payload.js";
import { memberSigningKey, type KeyPair } from "./keys.js";
import { MAX_CONFIRMATION_TTL_SECONDS, unixNow } from "./limits.js";
import { CONFIRM_CONTEXT, concatBytes, signedMessage } from "./signed-message.js";
import { lib } from "./sodium.js";
import { utf8 } from "./text-bytes.js";

export interface SignConfirmationInput {
  /** The member who issued `grant`; no one else's confirmation verifies. */
  member: KeyPair;
  /**
   * The grant the op runs under: only its `gid` and issuer are used, so a member's
   * device, which cannot open the grant it sealed to the bot, passes
   * `{ gid, iss: member.publicKey }` with the `gid` the bot reported.
   */
  grant: Pick<Grant, "gid" | "iss">;
  op: string;
  /** Exactly the args that will run; any change refuses the confirmation. */
  args: Readonly<Record<string, ArgValue>>;
  /** The rendered confirm line the member was shown and tapped (`renderConfirm`). */
  line: string;
  /** Life in seconds, 1 to 300 (the default); longer is refused with `ttl_too_long`. */
  ttlSeconds?: number;
  /** Unix seconds; defaults to the clock. */
  now?: number;
}

/** Canonical bytes and signature of a confirmation payload, and the token they make. */
export function encodeConfirmation(payload: ConfirmationPayload, memberSecretKey: Uint8Array): string {
  const bytes = utf8(confirmationJson(payload));
  const signature = lib().crypto_sign_detached(signedMessage([CONFIRM_CONTEXT, bytes]), memberSecretKey);
  return CONFIRMATION_PREFIX + toBase64Url(concatBytes(signature, bytes));
}

/**
 * Signs the member's tap on a consent chip (`ec1.<b64url>`): valid once, for this
 * grant, this op, exactly these args and this line, until it expires. Throws
 * `GrantError`: `mismatch` when `member` did not issue `grant`, `ttl_too_long`,
 * or `malformed`.
 */
export function signConfirmation(input: SignConfirmationInput): string {
  const ttlSeconds = input.ttlSeconds ?? MAX_CONFIRMATION_TTL_SECONDS;
  if (typeof ttlSeconds !== "number" || !Number.isSafeInteger(ttlSeconds) || ttlSeconds < 1) {
    throw new GrantError("malformed", "ttlSeconds must be a positive whole number of seconds");
  }
  if (ttlSeconds > MAX_CONFIRMATION_TTL_SECONDS) {
    throw new GrantError("ttl_too_long", `ttlSeconds is over ${MAX_CONFIRMATION_TTL_SECONDS}`);
  }
  const now = input.now ?? unixNow();
  if (!isUnixSeconds(now)) throw new GrantError("malformed", "now must be Unix seconds");
  const member = memberSigningKey(input.member);
  if (input.member.publicKey !== input.grant.iss) throw new GrantError("mismatch", "the grant was issued by another member");

  const payload = checkConfirmationPayload({
    v: 1,
    gid: input.grant.gid,
    op: input.op,
    args_digest: argsDigest(input.args),
    line_digest: blake2b256Base64Url(input.line),
    nonce: toBase64Url(lib().randombytes_buf(16)),
    exp: now + ttlSeconds,
  });
  return encodeConfirmation(payload, member.secretKey);
}
