import type { ArgValue } from "@eleven-integrations/schema";
import { decodeKey, fromBase64Url, toBase64Url, transientFromBase64Url } from "./base64url.js";
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
  args: Readonly<Record<string, ArgValue>>;
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

/** The fields of a checked confirmation. */
type CheckedFields = Pick<CheckedConfirmation, "member" | "gid" | "op" | "key" | "nonce" | "exp" | "keepUntil" | "argsDigest" | "lineDigest">;

/**
 * A confirmation that passed every check but the replay one (`checkConfirmation`):
 * whose it is, what it covers, and how long its replay entry must be kept. Only
 * this package makes one, so a store's consume can demand it (the type is
 * nominal: a look-alike object literal is not one).
 */
export class CheckedConfirmation {
  readonly #checked = true;
  /** The grant's member, who signed it. */
  readonly member: string;
  readonly gid: string;
  readonly op: string;
  /** `<gid>.<nonce>`: the replay key. */
  readonly key: string;
  readonly nonce: string;
  /** The confirmation's own expiry (Unix seconds), as the member signed it. */
  readonly exp: number;
  /** The last second (Unix) a verifier with the allowed skew accepts it: its replay entry lives at least this long. */
  readonly keepUntil: number;
  /** The canonical digest of the args it covers (`argsDigest`), equal to the signed one. */
  readonly argsDigest: string;
  /** The signed digest of the line the member saw. */
  readonly lineDigest: string;

  private constructor(fields: CheckedFields) {
    this.member = fields.member;
    this.gid = fields.gid;
    this.op = fields.op;
    this.key = fields.key;
    this.nonce = fields.nonce;
    this.exp = fields.exp;
    this.keepUntil = fields.keepUntil;
    this.argsDigest = fields.argsDigest;
    this.lineDigest = fields.lineDigest;
  }

  /** True for a value `checkConfirmation` made (not a copy of its fields). */
  static isChecked(value: unknown): value is CheckedConfirmation {
    return typeof value === "object" && value !== null && #checked in value;
  }

  /** @internal Made by `checkConfirmation` alone. */
  static fromChecks(fields: CheckedFields, seal: typeof CHECK_SEAL): CheckedConfirmation {
    if (seal !== CHECK_SEAL) throw new TypeError("a CheckedConfirmation is made by checkConfirmation");
    return new CheckedConfirmation(fields);
  }
}

/** Held by this module alone: nothing outside it can make a `CheckedConfirmation`. */
const CHECK_SEAL: unique symbol = Symbol("checked confirmation");

/** What `checkConfirmation` is given: the call the confirmation must cover. */
export type CheckConfirmationOptions = VerifyConfirmationBase;

/**
 * Every check of a confirmation but the replay one, the first of two phases:
 * signed by the grant's member (`bad_signature`), for this grant, op, exact args
 * and line (`mismatch`), not expired (`expired`) nor living over 300 seconds
 * (`ttl_too_long`). Returns the checked confirmation, which a replay store then
 * consumes (`consumeChecked`, or a shared store's own consume); throws `GrantError`.
 */
export function checkConfirmation(token: string, options: CheckConfirmationOptions): CheckedConfirmation {
  return checkedAt(token, options, resolveNow(options.now));
}

/**
 * Which confirmation this is, for finding the outcome of the write it ran:
 * its member, replay key, args digest and expiry. `checkConfirmation` gives one
 * (a `CheckedConfirmation` is one); `recallConfirmation` gives one after expiry.
 */
export interface ConfirmationRef {
  readonly member: string;
  readonly gid: string;
  readonly key: string;
  readonly nonce: string;
  readonly exp: number;
  readonly argsDigest: string;
}

/**
 * Names a confirmation the grant's member signed for this grant, op and exact
 * args, whether or not it is still valid and whatever line it covered: what a
 * sidecar needs to answer the same call sent again with the stored outcome of
 * the write it ran, after the confirmation expired. It consumes nothing and
 * authorises nothing (a store's consume takes only a `CheckedConfirmation`).
 * Throws `GrantError` (`malformed`, `bad_signature`, `mismatch`).
 */
export function recallConfirmation(token: string, options: Pick<VerifyConfirmationBase, "grant" | "op" | "args">): ConfirmationRef {
  const { payload, argsBytes } = signedPayload(token, options);
  return {
    member: options.grant.iss,
    gid: payload.gid,
    key: `${payload.gid}.${payload.nonce}`,
    nonce: payload.nonce,
    exp: payload.exp,
    argsDigest: toBase64Url(argsBytes),
  };
}

/** Consumes a checked confirmation in a synchronous replay store; throws `GrantError` `replayed` when it was used before. */
export function consumeChecked(checked: CheckedConfirmation, replay: ReplayStore, now?: number): void {
  if (!CheckedConfirmation.isChecked(checked)) throw new TypeError("consumeChecked takes what checkConfirmation returned");
  if (!replay.consume(checked.key, checked.keepUntil, resolveNow(now))) {
    throw new GrantError("replayed", "the confirmation was already used");
  }
}

/** The payload of a confirmation signed by the grant's member for this grant, op and args; the line and the expiry are not checked. */
function signedPayload(token: string, options: Pick<VerifyConfirmationBase, "grant" | "op" | "args">) {
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
  const argsBytes = argsDigestBytes(options.args);
  if (!equalBytes(fromBase64Url(payload.args_digest), argsBytes)) {
    throw new GrantError("mismatch", "the confirmation is for other args");
  }
  return { payload, argsBytes };
}

function checkedAt(token: string, options: VerifyConfirmationBase, now: number): CheckedConfirmation {
  const { payload, argsBytes } = signedPayload(token, options);
  if (!equalBytes(fromBase64Url(payload.line_digest), blake2b256(options.line))) {
    throw new GrantError("mismatch", "the confirmation is for another confirm line");
  }
  if (payload.exp > now + MAX_CONFIRMATION_TTL_SECONDS + CLOCK_SKEW_SECONDS) {
    throw new GrantError("ttl_too_long", `the confirmation lives longer than ${MAX_CONFIRMATION_TTL_SECONDS} seconds`);
  }
  if (payload.exp + CLOCK_SKEW_SECONDS <= now) throw new GrantError("expired", "the confirmation has expired");
  return CheckedConfirmation.fromChecks(
    {
      member: options.grant.iss,
      gid: payload.gid,
      op: payload.op,
      key: `${payload.gid}.${payload.nonce}`,
      nonce: payload.nonce,
      exp: payload.exp,
      // Kept as long as the skew lets the confirmation verify, so it can never be used twice.
      keepUntil: payload.exp + CLOCK_SKEW_SECONDS,
      argsDigest: toBase64Url(argsBytes),
      lineDigest: payload.line_digest,
    },
    CHECK_SEAL,
  );
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
  consumeChecked(checkedAt(token, options, now), options.replay, now);
}

/**
 * `verifyConfirmation` with an asynchronous shared replay store: of concurrent
 * submissions of one confirmation, only the one whose `consume` resolves true
 * passes. Rejects with `GrantError`.
 */
export async function verifyConfirmationAsync(token: string, options: VerifyConfirmationAsyncOptions): Promise<void> {
  const checked = checkedAt(token, options, resolveNow(options.now));
  if (!(await options.replay.consume(checked.key, checked.keepUntil))) {
    throw new GrantError("replayed", "the confirmation was already used");
  }
}
