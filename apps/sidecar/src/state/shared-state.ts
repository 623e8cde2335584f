import { CLOCK_SKEW_SECONDS, type CheckedConfirmation, type ConfirmationRef } from "@eleven-integrations/grants";
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

/** What admitting a call found: it may go on, its grant is revoked, or it is over a limit. */
export type Admission = RateDecision | { ok: false; scope: "revoked" };

/** The admission of a call whose grant is revoked. */
export const REVOKED_ADMISSION: Extract<Admission, { scope: "revoked" }> = Object.freeze({ ok: false, scope: "revoked" });

/** How sure an answer must be: a write needs the shared store, a read goes on with what this sidecar knows. */
export type Strictness = "shared" | "local-ok";

/** What admitting a confirmed write and consuming its confirmation in one step found: refused as `admit` refuses, or whether it consumed it. */
export type AdmittedConsumption = { ok: true; consumed: boolean } | Exclude<Admission, { ok: true }>;

/** A grant as a revocation names it: its id and its member. */
export interface GrantRef {
  readonly gid: string;
  readonly member: string;
}

/** Whose a call is: every entry the state keeps for it (limits, revocation) is keyed by these. */
export interface CallScope extends GrantRef {
  readonly integration: string;
}

/** One write a member may confirm: the previews given for it are kept under these. */
export interface WriteSlot extends GrantRef {
  readonly op: string;
  /** The args' plain digest (`argsDigest`). */
  readonly argsDigest: string;
}

/** One run under a standing approval, as its budget counts it: whose approval, the budget it signed, and what this run spends. */
export interface ApprovalSpend {
  /** The approval's id and its member: its budget and its revocation are keyed by these (an approval is revoked as a grant is, by id). */
  readonly ref: GrantRef;
  /** At most `runs` in any window of `perSeconds`, the window started by its first run. */
  readonly runs: number;
  readonly perSeconds: number;
  /** With a budget summed over an arg: this run's amount and the window's most. */
  readonly sum?: { readonly amount: number; readonly max: number };
}

/** What spending one run of an approval's budget found. */
export type ApprovalSpendResult = { ok: true } | { ok: false; reason: "revoked" } | { ok: false; reason: "exhausted"; retryAfterSeconds: number };

/** What is left of an approval's budget now, without spending any. */
export interface ApprovalBudgetLeft {
  runsLeft: number;
  /** What is left of a summed budget, when it has one. */
  sumLeft?: number;
  /** Unix seconds when the current window ends (now when no window is open). */
  resetsAt: number;
  revoked: boolean;
}

/**
 * Everything a bot's sidecars must agree on: consumed confirmations, rate
 * limits, revocations and the previews they gave. `LocalState` keeps it in this process and on disk;
 * `RedisState` in Redis, shared by every sidecar of the bot. Each method takes
 * the call (its scope, its write slot or its checked confirmation), never loose strings.
 */
export interface SharedState {
  readonly kind: "local" | "redis";
  /** Opens files or the connection; a Redis that is down does not keep the sidecar from starting. */
  open(): Promise<void>;
  close(): Promise<void>;
  /**
   * Admits a call in one trip to the store: whether its grant is revoked (the
   * shared answer: while the store is away this sidecar cannot know what another
   * recorded, so it fails closed with `StateUnavailableError`), and, when
   * `countRun` and the grant is not revoked, one run counted against the grant's
   * and the integration's limits.
   */
  admit(call: CallScope, countRun: boolean): Promise<Admission>;
  /**
   * Records a checked confirmation (`checkConfirmation` in grants) as used, keyed
   * by its member and `<gid>.<nonce>`, while this sidecar would still accept it
   * (its `keepUntil`, on this sidecar's clock) and a margin after; true only the
   * first time. In the same step its outcome slot is marked `PENDING_OUTCOME`, so
   * the same call sent while its write is in flight is told so, and only then.
   * Throws `StateUnavailableError`.
   */
  consumeConfirmation(checked: CheckedConfirmation): Promise<boolean>;
  /**
   * `admit(call, true)` and `consumeConfirmation(checked)` in one trip (a confirmed
   * write without a preview: nothing else is asked of the store before it is sent):
   * refused as `admit` refuses (nothing consumed), else whether this call consumed
   * the confirmation, with `consumeConfirmation`'s guarantees. Throws `StateUnavailableError`.
   */
  admitAndConsume(call: CallScope, checked: CheckedConfirmation): Promise<AdmittedConsumption>;
  /**
   * Keeps the outcome of the write a consumed confirmation ran (the envelope the
   * bot got, as JSON) for as long as the confirmation could be sent again plus
   * the skew and `OUTCOME_EXTRA_SECONDS`. Throws `StateUnavailableError`.
   */
  storeOutcome(checked: CheckedConfirmation, outcome: string): Promise<void>;
  /**
   * The outcome `storeOutcome` kept for that confirmation and its args,
   * `PENDING_OUTCOME` while its write is in flight, or `undefined` (never
   * consumed here, or forgotten: a store that lost its data). Expired
   * confirmations are named too (`recallConfirmation`). Throws `StateUnavailableError`.
   */
  storedOutcome(confirmation: ConfirmationRef): Promise<string | undefined>;
  /** Counts one run of the call's grant and integration; throws `StateUnavailableError` only when `shared` is demanded. */
  takeRun(call: CallScope, strictness: Strictness): Promise<RateDecision>;
  /** Records that the member revoked the grant, until `until` (Unix seconds). Throws `StateUnavailableError`. */
  revoke(grant: GrantRef, until: number): Promise<void>;
  /** Whether the member revoked the grant; throws `StateUnavailableError` only when `shared` is demanded. */
  isRevoked(grant: GrantRef, strictness: Strictness): Promise<boolean>;
  /**
   * Keeps a preview this sidecar gave for a write for as long as a confirmation
   * over it could verify, so a tap on it is accepted by any sidecar of the bot.
   * Throws `StateUnavailableError`.
   */
  rememberPreview(write: WriteSlot, preview: string): Promise<void>;
  /** The previews `rememberPreview` kept for that write, newest first (at most 16). Throws `StateUnavailableError`. */
  givenPreviews(write: WriteSlot): Promise<readonly string[]>;
  /**
   * Spends one run (and its amount) of a standing approval's budget, in one step
   * that cannot be raced: unless the approval is revoked or the run would go over
   * the window's runs or sum, it is counted (acknowledged by `replicasToAck`
   * replicas under Sentinel, as a consumed confirmation is). A store that lost its
   * data within the window cannot say what was spent: `exhausted` until the window
   * has passed. Throws `StateUnavailableError`.
   */
  spendApproval(spend: ApprovalSpend): Promise<ApprovalSpendResult>;
  /** What is left of an approval's budget (`POST /v1/policy`). Throws `StateUnavailableError`. */
  approvalBudget(spend: Omit<ApprovalSpend, "sum"> & { readonly sumMax?: number }): Promise<ApprovalBudgetLeft>;
}

/** How long past its confirmation's last accepted second (and the skew) a write's outcome is kept: ten minutes. */
export const OUTCOME_EXTRA_SECONDS = 600;

/** The id an outcome is kept under: member, confirmation key and args digest. */
export function outcomeId(confirmation: ConfirmationRef): string {
  return `${confirmation.member}:${confirmation.key}:${confirmation.argsDigest}`;
}

/** What a consumed confirmation's outcome slot holds until its write's outcome is stored: the write is in flight. */
export const PENDING_OUTCOME = "pending";

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
