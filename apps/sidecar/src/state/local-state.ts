import { ReplayCache } from "@eleven-integrations/grants";
import type { JournalIo } from "../audit/line-journal.js";
import { GivenPreviews, previewId } from "./given-previews.js";
import { consumeBoth, memoryLimiters, resolveRateLimits, type LimiterPair } from "./rate-limiters.js";
import { OutcomeJournal } from "./outcome-journal.js";
import { ReplayJournal } from "./replay-journal.js";
import { RevocationJournal } from "./revocation-journal.js";
import { CLOCK_SKEW_SECONDS } from "@eleven-integrations/grants";
import {
  OUTCOME_EXTRA_SECONDS,
  outcomeId,
  REVOKED_ADMISSION,
  StateUnavailableError,
  type RateDecision,
  type RateLimits,
  type ReadAdmission,
  type SharedState,
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
  rateLimits?: RateLimits;
  /** File operations; tests inject a full disk. */
  io?: JournalIo;
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

  constructor(options: LocalStateOptions = {}) {
    if (options.replayFile === undefined) this.cache = new ReplayCache();
    else this.journal = new ReplayJournal(options.replayFile, options.io === undefined ? {} : { io: options.io });
    this.revocations = new RevocationJournal(options.revocationFile, options.io);
    this.limiters = memoryLimiters(resolveRateLimits(options.rateLimits));
    this.outcomes = new OutcomeJournal(options.outcomeFile, {
      ...(options.io === undefined ? {} : { io: options.io }),
      ...(options.maxOutcomes === undefined ? {} : { maxEntries: options.maxOutcomes }),
    });
  }

  async open(): Promise<void> {
    this.journal?.load();
    this.revocations.load();
    this.outcomes.load();
  }

  async close(): Promise<void> {
    this.journal?.close();
    this.revocations.close();
    this.outcomes.close();
  }

  async storeOutcome(member: string, key: string, argsDigest: string, exp: number, outcome: string): Promise<void> {
    try {
      this.outcomes.store(outcomeId(member, key, argsDigest), exp + CLOCK_SKEW_SECONDS + OUTCOME_EXTRA_SECONDS, outcome);
    } catch (error) {
      throw new StateUnavailableError("the outcome journal could not be written", { cause: error });
    }
  }

  async storedOutcome(member: string, key: string, argsDigest: string): Promise<string | undefined> {
    return this.outcomes.get(outcomeId(member, key, argsDigest));
  }

  async consumeConfirmation(member: string, key: string, exp: number): Promise<boolean> {
    const now = unixNow();
    key = `${member}.${key}`;
    if (this.cache !== undefined) return this.cache.consume(key, exp, now);
    try {
      return this.journal?.consume(key, exp, now) ?? false;
    } catch (error) {
      throw new StateUnavailableError("the replay journal could not be written", { cause: error });
    }
  }

  takeRun(member: string, gid: string, integration: string): Promise<RateDecision> {
    return consumeBoth(this.limiters, member, gid, integration);
  }

  async revoke(gid: string, member: string, until: number): Promise<void> {
    try {
      this.revocations.revoke(gid, member, until);
    } catch (error) {
      throw new StateUnavailableError("the revocation journal could not be written", { cause: error });
    }
  }

  async isRevoked(gid: string, member: string): Promise<boolean> {
    return this.revocations.isRevoked(gid, member);
  }

  admitRead(gid: string, member: string, integration: string): Promise<ReadAdmission> {
    if (this.revocations.isRevoked(gid, member)) return Promise.resolve(REVOKED_ADMISSION);
    return consumeBoth(this.limiters, member, gid, integration);
  }

  async rememberPreview(member: string, gid: string, op: string, argsDigest: string, preview: string): Promise<void> {
    this.previews.remember(previewId(member, gid, op, argsDigest), preview);
  }

  async givenPreviews(member: string, gid: string, op: string, argsDigest: string): Promise<readonly string[]> {
    return this.previews.given(previewId(member, gid, op, argsDigest));
  }
}
