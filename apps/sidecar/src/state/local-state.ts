import { ReplayCache, type CheckedConfirmation, type ConfirmationRef } from "@eleven-integrations/grants";
import type { JournalIo } from "../audit/line-journal.js";
import { GivenPreviews, previewId } from "./given-previews.js";
import { consumeBoth, memoryLimiters, resolveRateLimits, type LimiterPair } from "./rate-limiters.js";
import { OutcomeJournal } from "./outcome-journal.js";
import { ReplayJournal } from "./replay-journal.js";
import { ApprovalJournal } from "./approval-journal.js";
import { RevocationJournal } from "./revocation-journal.js";
import { CLOCK_SKEW_SECONDS } from "@eleven-integrations/grants";
import {
  OUTCOME_EXTRA_SECONDS,
  outcomeId,
  PENDING_OUTCOME,
  REVOKED_ADMISSION,
  StateUnavailableError,
  type Admission,
  type AdmittedConsumption,
  type ApprovalBudgetLeft,
  type ApprovalSpend,
  type ApprovalSpendResult,
  type CallScope,
  type GrantRef,
  type RateDecision,
  type RateLimits,
  type SharedState,
  type WriteSlot,
} from "./shared-state.js";

export interface LocalStateOptions {
  /** Consumed confirmations are journaled here (0600); without it, memory only. */
  replayFile?: string;
  /** The outcomes of confirmed writes are journaled here (0600); without it, memory only. */
  outcomeFile?: string;
  /** Outcomes held at once (default 10 000): past it the oldest is forgotten. */
  maxOutcomes?: number;
  /** Revocations are journaled here (0600); without it, memory only. */
  revocationFile?: string;
  /** Standing approvals' budgets are journaled here (0600); without it, memory only. */
  approvalFile?: string;
  rateLimits?: RateLimits;
  /** File operations; tests inject a full disk. */
  io?: JournalIo;
}

/** Past this many, expired "in progress" marks are swept (a live one is never dropped: its write is in flight). */
const MAX_PENDING = 10_000;

/** How long a write's outcome is kept: as long as its confirmation could be sent again, plus `OUTCOME_EXTRA_SECONDS`. */
function outcomeUntil(checked: CheckedConfirmation): number {
  return checked.keepUntil + CLOCK_SKEW_SECONDS + OUTCOME_EXTRA_SECONDS;
}

function unixNow(): number {
  return Math.floor(Date.now() / 1000);
}

/**
 * One sidecar on its own: consumed confirmations and revocations in memory and
 * journaled on disk (flushed before they count), rate limits and the previews it
 * gave in memory.
 */
export class LocalState implements SharedState {
  readonly kind = "local" as const;
  private readonly journal: ReplayJournal | undefined;
  private readonly cache: ReplayCache | undefined;
  private readonly revocations: RevocationJournal;
  private readonly limiters: LimiterPair;
  private readonly outcomes: OutcomeJournal;
  private readonly previews = new GivenPreviews();
  private readonly approvals: ApprovalJournal;
  /** Writes whose confirmation was consumed and whose outcome is not stored yet: id -> until (Unix seconds). */
  private readonly pending = new Map<string, number>();

  constructor(options: LocalStateOptions = {}) {
    if (options.replayFile === undefined) this.cache = new ReplayCache();
    else this.journal = new ReplayJournal(options.replayFile, options.io === undefined ? {} : { io: options.io });
    this.revocations = new RevocationJournal(options.revocationFile, options.io);
    this.limiters = memoryLimiters(resolveRateLimits(options.rateLimits));
    this.approvals = new ApprovalJournal(options.approvalFile, options.io);
    this.outcomes = new OutcomeJournal(options.outcomeFile, {
      ...(options.io === undefined ? {} : { io: options.io }),
      ...(options.maxOutcomes === undefined ? {} : { maxEntries: options.maxOutcomes }),
    });
  }

  async open(): Promise<void> {
    this.journal?.load();
    this.revocations.load();
    this.outcomes.load();
    this.approvals.load();
  }

  async close(): Promise<void> {
    this.journal?.close();
    this.revocations.close();
    this.outcomes.close();
    this.approvals.close();
  }

  async storeOutcome(checked: CheckedConfirmation, outcome: string): Promise<void> {
    this.pending.delete(outcomeId(checked));
    try {
      this.outcomes.store(outcomeId(checked), outcomeUntil(checked), outcome);
    } catch (error) {
      throw new StateUnavailableError("the outcome journal could not be written", { cause: error });
    }
  }

  async storedOutcome(confirmation: ConfirmationRef): Promise<string | undefined> {
    const id = outcomeId(confirmation);
    const stored = this.outcomes.get(id);
    if (stored !== undefined) return stored;
    const until = this.pending.get(id);
    return until !== undefined && until > unixNow() ? PENDING_OUTCOME : undefined;
  }

  async consumeConfirmation(checked: CheckedConfirmation): Promise<boolean> {
    const now = unixNow();
    const key = `${checked.member}.${checked.key}`;
    let consumed: boolean;
    if (this.cache !== undefined) consumed = this.cache.consume(key, checked.keepUntil, now);
    else {
      try {
        consumed = this.journal?.consume(key, checked.keepUntil, now) ?? false;
      } catch (error) {
        throw new StateUnavailableError("the replay journal could not be written", { cause: error });
      }
    }
    // In memory only: after a restart the write in flight has no outcome, and the same call is told to tap again.
    if (consumed) this.markPending(outcomeId(checked), outcomeUntil(checked), now);
    return consumed;
  }

  private markPending(id: string, until: number, now: number): void {
    if (this.pending.size >= MAX_PENDING) {
      for (const [key, keptUntil] of this.pending) if (keptUntil <= now) this.pending.delete(key);
    }
    this.pending.set(id, until);
  }

  takeRun(call: CallScope): Promise<RateDecision> {
    return consumeBoth(this.limiters, call.member, call.gid, call.integration);
  }

  async revoke(grant: GrantRef, until: number): Promise<void> {
    try {
      this.revocations.revoke(grant.gid, grant.member, until);
    } catch (error) {
      throw new StateUnavailableError("the revocation journal could not be written", { cause: error });
    }
  }

  async isRevoked(grant: GrantRef): Promise<boolean> {
    return this.revocations.isRevoked(grant.gid, grant.member);
  }

  async admit(call: CallScope, countRun: boolean): Promise<Admission> {
    if (this.revocations.isRevoked(call.gid, call.member)) return REVOKED_ADMISSION;
    return countRun ? consumeBoth(this.limiters, call.member, call.gid, call.integration) : { ok: true };
  }

  async admitAndConsume(call: CallScope, checked: CheckedConfirmation): Promise<AdmittedConsumption> {
    const admission = await this.admit(call, true);
    if (!admission.ok) return admission;
    return { ok: true, consumed: await this.consumeConfirmation(checked) };
  }

  async rememberPreview(write: WriteSlot, preview: string): Promise<void> {
    this.previews.remember(previewId(write), preview);
  }

  async givenPreviews(write: WriteSlot): Promise<readonly string[]> {
    return this.previews.given(previewId(write));
  }

  async spendApproval(spend: ApprovalSpend): Promise<ApprovalSpendResult> {
    if (this.revocations.isRevoked(spend.ref.gid, spend.ref.member)) return { ok: false, reason: "revoked" };
    try {
      return this.approvals.spend(spend);
    } catch (error) {
      throw new StateUnavailableError("the approval journal could not be written", { cause: error });
    }
  }

  async approvalBudget(spend: Omit<ApprovalSpend, "sum"> & { readonly sumMax?: number }): Promise<ApprovalBudgetLeft> {
    return { ...this.approvals.left(spend), revoked: this.revocations.isRevoked(spend.ref.gid, spend.ref.member) };
  }
}
