import { decodeKey, fromBase64Url, transientFromBase64Url } from "./base64url.js";
import { CONFIRMATION_PREFIX, readConfirmationPayload } from "./confirmation-payload.js";
import { argsDigestBytes, blake2b256 } from "./digest.js";
import { GrantError } from "./grant-error.js";
import { isUnixSeconds, type Grant } from "./grant-payload.js";
import { CLOCK_SKEW_SECONDS, MAX_CONFIRMATION_LENGTH, MAX_CONFIRMATION_TTL_SECONDS, unixNow } from "./limits.js";
import { CONFIRM_CONTEXT, transientSignedMessage } from "./signed-message.js";
import { lib } from "./sodium.js";
import { equalBytes } from "./text-bytes.js";

const SIGNATURE_BYTES = 64;

interface VerifyConfirmationBase {
  /** The grant the op runs under, as `openGrant` returned it; its issuer must have signed the confirmation. */
  grant: Grant;
  op: string;
  /** Exactly the args about to run. */
  args: Record<string, string>;
  /** The confirm line rendered for this op and these args (`renderConfirm`). */
  line: string;
  /** Unix seconds; defaults to the clock. */
  now?: number;
}

/** A synchronous replay store; `ReplayCache` is one. */
export interface ReplayStore {
  /** Records `key` until `exp` (Unix seconds); true only if it was not already there. */
  consume(key: string, exp: number, now: number): boolean;
}

export interface VerifyConfirmationOptions extends VerifyConfirmationBase {
  /** Where used confirmations are remembered until they expire: a `ReplayCache`. */
  replay: ReplayStore;
}

/** A shared replay store, such as Redis `SET key 1 NX EXAT exp`. */
export interface AsyncReplayStore {
  /** Atomically records `key` until `exp` (Unix seconds); resolves true only if it was not already there. */
  consume(key: string, exp: number): Promise<boolean>;
}

export interface VerifyConfirmationAsyncOptions extends VerifyConfirmationBase {
  replay: AsyncReplayStore;
}

/** Every check but the replay one; returns the replay key and how long to keep it. */
function checkConfirmation(token: string, options: VerifyConfirmationBase, now: number): { key: string; keepUntil: number } {
  if (typeof token !== "string" || token.length > MAX_CONFIRMATION_LENGTH) {
    throw new GrantError("malformed", `a confirmation is at most ${MAX_CONFIRMATION_LENGTH} characters`);
  }
  if (!token.startsWith(CONFIRMATION_PREFIX)) {
    throw new GrantError("malformed", `a confirmation starts with ${CONFIRMATION_PREFIX}`);
  }
  // Nothing in a confirmation is secret, so it is decoded and checked in reused buffers.
  const bytes = transientFromBase64Url(token, CONFIRMATION_PREFIX.length);
  if (bytes.length <= SIGNATURE_BYTES) throw new GrantError("malformed", "confirmation is too short");
  const signature = bytes.subarray(0, SIGNATURE_BYTES);
  const payloadBytes = bytes.subarray(SIGNATURE_BYTES);
  const memberKey = decodeKey(options.grant.iss, 32, "grant issuer");
  if (!lib().crypto_sign_verify_detached(signature, transientSignedMessage([CONFIRM_CONTEXT, payloadBytes]), memberKey)) {
    throw new GrantError("bad_signature", "the confirmation was not signed by the grant's member");
  }
  const payload = readConfirmationPayload(payloadBytes);

  if (payload.gid !== options.grant.gid) throw new GrantError("mismatch", "the confirmation is for another grant");
  if (payload.op !== options.op) throw new GrantError("mismatch", "the confirmation is for another op");
  if (!equalBytes(fromBase64Url(payload.args_digest), argsDigestBytes(options.args))) {
    throw new GrantError("mismatch", "the confirmation is for other args");
  }
  if (!equalBytes(fromBase64Url(payload.line_digest), blake2b256(options.line))) {
    throw new GrantError("mismatch", "the confirmation is for another confirm line");
  }
  if (payload.exp > now + MAX_CONFIRMATION_TTL_SECONDS + CLOCK_SKEW_SECONDS) {
    throw new GrantError("ttl_too_long", `the confirmation lives longer than ${MAX_CONFIRMATION_TTL_SECONDS} seconds`);
  }
  if (payload.exp + CLOCK_SKEW_SECONDS <= now) throw new GrantError("expired", "the confirmation has expired");
  // Kept as long as the skew lets the confirmation verify, so it can never be used twice.
  return { key: `${payload.gid}.${payload.nonce}`, keepUntil: payload.exp + CLOCK_SKEW_SECONDS };
}

function resolveNow(now: number | undefined): number {
  const value = now ?? unixNow();
  if (!isUnixSeconds(value)) throw new GrantError("malformed", "now must be Unix seconds");
  return value;
}

/**
 * Verifies a confirmation and consumes it: signed by the grant's member
 * (`bad_signature`), for this grant, op, exact args and line (`mismatch`), not
 * expired (`expired`) nor living over 300 seconds (`ttl_too_long`), and not used
 * before (`replayed`). The replay cache is written only after every other check
 * passed. Returns nothing; throws `GrantError`.
 */
export function verifyConfirmation(token: string, options: VerifyConfirmationOptions): void {
  const now = resolveNow(options.now);
  const { key, keepUntil } = checkConfirmation(token, options, now);
  if (!options.replay.consume(key, keepUntil, now)) {
    throw new GrantError("replayed", "the confirmation was already used");
  }
}

/**
 * `verifyConfirmation` with an asynchronous shared replay store: of concurrent
 * submissions of one confirmation, only the one whose `consume` resolves true
 * passes. Rejects with `GrantError`.
 */
export async function verifyConfirmationAsync(token: string, options: VerifyConfirmationAsyncOptions): Promise<void> {
  const now = resolveNow(options.now);
  const { key, keepUntil } = checkConfirmation(token, options, now);
  if (!(await options.replay.consume(key, keepUntil))) {
    throw new GrantError("replayed", "the confirmation was already used");
  }
}
