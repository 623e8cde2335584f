import { CLOCK_SKEW_SECONDS } from "@eleven-integrations/grants";
import { markedError } from "@eleven-integrations/schema";

/** A rate limit: at most `points` runs in any window of `durationSeconds` (fixed windows, started by the first run). */
export interface RateLimit {
  points: number;
  durationSeconds: number;
}

/** Rate limits per grant and per integration; each bot's sidecars share them through the store. */
export interface RateLimits {
  /** Runs of one grant (reads and writes together). Default 60 a minute. */
  perGrant?: RateLimit;
  /** Runs of one integration across every grant of this bot. Default 300 a minute. */
  perIntegration?: RateLimit;
}

/** What protects a member's account when nothing is configured: one run a second per grant, five per integration. */
export const DEFAULT_RATE_LIMITS: Required<RateLimits> = {
  perGrant: { points: 60, durationSeconds: 60 },
  perIntegration: { points: 300, durationSeconds: 60 },
};

/** The result of counting one run against the limits. */
export type RateDecision = { ok: true } | { ok: false; scope: "grant" | "integration"; retryAfterSeconds: number };

/** What admitting a read found: it runs, its grant is revoked, or it is over a limit. */
export type ReadAdmission = RateDecision | { ok: false; scope: "revoked" };

/** The admission of a read whose grant is revoked. */
export const REVOKED_ADMISSION: ReadAdmission = Object.freeze({ ok: false, scope: "revoked" });

/** How sure an answer must be: a write needs the shared store, a read goes on with what this sidecar knows. */
export type Strictness = "shared" | "local-ok";

/**
 * Everything a bot's sidecars must agree on: consumed confirmations, rate
 * limits, revocations and the previews they gave. `LocalState` keeps it in this process and on disk;
 * `RedisState` in Redis, shared by every sidecar of the bot.
 */
export interface SharedState {
  readonly kind: "local" | "redis";
  /** Opens files or the connection; a Redis that is down does not keep the sidecar from starting. */
  open(): Promise<void>;
  close(): Promise<void>;
  /**
   * Records `member`'s confirmation `key` (`<gid>.<nonce>`) as used while this
   * sidecar would still accept it (until `exp`, Unix seconds, on this sidecar's
   * clock) and a margin after; true only the first time. Keyed by member, so
   * another member's grant reusing the gid cannot burn it. Throws `StateUnavailableError`.
   */
  consumeConfirmation(member: string, key: string, exp: number): Promise<boolean>;
  /**
   * Keeps the outcome of `member`'s confirmed write (the envelope the bot got, as
   * JSON) under its confirmation `key` (`<gid>.<nonce>`) and the args' digest, for
   * as long as the confirmation could be sent again (until `exp`) plus the skew
   * and `OUTCOME_EXTRA_SECONDS`. Throws `StateUnavailableError`.
   */
  storeOutcome(member: string, key: string, argsDigest: string, exp: number, outcome: string): Promise<void>;
  /** The outcome `storeOutcome` kept, or `undefined`. Throws `StateUnavailableError`. */
  storedOutcome(member: string, key: string, argsDigest: string): Promise<string | undefined>;
  /** Counts one run of `member`'s grant `gid` on `integration`; throws `StateUnavailableError` only when `shared` is demanded. */
  takeRun(member: string, gid: string, integration: string, strictness: Strictness): Promise<RateDecision>;
  /** Records that `member` revoked `gid`, until `until` (Unix seconds). Throws `StateUnavailableError`. */
  revoke(gid: string, member: string, until: number): Promise<void>;
  /** Whether `member` revoked its grant `gid`; throws `StateUnavailableError` only when `shared` is demanded. */
  isRevoked(gid: string, member: string, strictness: Strictness): Promise<boolean>;
  /**
   * A read that passed every check made in this process: `isRevoked(…, "shared")`, then, for a
   * grant not revoked, `takeRun(…, "local-ok")`, with the same answers and the same errors. Redis
   * answers both in one round trip (one script), so a read costs one trip to the store.
   */
  admitRead(gid: string, member: string, integration: string): Promise<ReadAdmission>;
  /**
   * Keeps a preview this sidecar gave for `member`'s write (grant `gid`, `op`, the args'
   * plain digest) for as long as a confirmation over it could verify, so a tap on it is
   * accepted by any sidecar of the bot. Throws `StateUnavailableError`.
   */
  rememberPreview(member: string, gid: string, op: string, argsDigest: string, preview: string): Promise<void>;
  /** The previews `rememberPreview` kept for that write, newest first (at most 16). Throws `StateUnavailableError`. */
  givenPreviews(member: string, gid: string, op: string, argsDigest: string): Promise<readonly string[]>;
}

/** How long past its confirmation's last accepted second (and the skew) a write's outcome is kept: ten minutes. */
export const OUTCOME_EXTRA_SECONDS = 600;

/** The id an outcome is kept under: member, confirmation key and args digest. */
export function outcomeId(member: string, key: string, argsDigest: string): string {
  return `${member}:${key}:${argsDigest}`;
}

/** The shared store (Redis, or the journal on disk) cannot be reached or written: nothing that needs it runs. */
export class StateUnavailableError extends markedError("StateUnavailableError") {
  readonly code = "unavailable" as const;

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/**
 * How long past the last second a sidecar accepts what an entry guards the
 * entry is kept: the clock skew another sidecar's clock may have, plus the
 * longest a command may take on its way (so an entry written at the last
 * second does not arrive already expired).
 */
export function keepMarginMs(commandTimeoutMs: number): number {
  return CLOCK_SKEW_SECONDS * 1000 + commandTimeoutMs;
}

/** Whole seconds to wait, at least 1. */
export function retryAfterSeconds(msBeforeNext: number): number {
  return Math.max(1, Math.ceil(msBeforeNext / 1000));
}
