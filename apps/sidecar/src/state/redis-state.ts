import type { CheckedConfirmation, ConfirmationRef } from "@eleven-integrations/grants";
import type { Redis } from "ioredis";
import { RateLimiterRedis } from "rate-limiter-flexible";
import { admitCommand, admitReply } from "./admit-script.js";
import { consumeCommand, consumeReply } from "./consume-script.js";
import { admitConsumeCommand, admitConsumeReply } from "./admit-consume-script.js";
import { leftCommand, leftReply, spendCommand, spendReply } from "./approval-script.js";
import { connectedReplicasOf, primaryStandsAlone, runIdOf, type SentinelSet } from "./sentinel-view.js";
import { PREVIEW_MEMORY_MS, PREVIEWS_PER_WRITE, previewId } from "./given-previews.js";
import { closeRedis, connectRedis, waitUntilReady } from "./redis-connection.js";
import { consumeBoth, limiterOptions, memoryLimiters, resolveRateLimits, type LimiterPair } from "./rate-limiters.js";
import type { RedisTarget } from "./redis-target.js";
import { RevocationJournal } from "./revocation-journal.js";
import { StoreEpoch } from "./store-epoch.js";
import {
  keepMarginMs,
  OUTCOME_EXTRA_SECONDS,
  outcomeId,
  PENDING_OUTCOME,
  REVOKED_ADMISSION,
  retryAfterSeconds,
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
  type Strictness,
  type WriteSlot,
} from "./shared-state.js";

/** One command's deadline unless configured, in ms. */
export const DEFAULT_COMMAND_TIMEOUT_MS = 1000;

/** `{ url: "redis://[user:password@]host:port[/db]" }` (or `rediss://`), or `{ sentinels, name }` for Redis Sentinel. */
export type RedisStateOptions = RedisTarget & RedisStateSettings;

export interface RedisStateSettings {
  /** Every key starts with `eleven:sidecar:<namespace>:`; the sidecar uses its bot's public key, so each bot's sidecars share and no other bot's do. */
  namespace: string;
  rateLimits?: RateLimits;
  /** One command's deadline in ms (default 1000). */
  commandTimeoutMs?: number;
  /** Told about connection errors. */
  onError?: (error: Error) => void;
  /**
   * Revocations this sidecar recorded or saw are also journaled here (0600), so they
   * survive a restart and are written back to a Redis that lost its data. Without it: memory only.
   */
  revocationFile?: string;
  /** This sidecar's clock in ms (tests set it behind or ahead); default `Date.now`. */
  now?: () => number;
  /**
   * Replicas that must acknowledge (`WAIT`) a consumed confirmation or a revocation before
   * it counts; default 1 with Sentinel, 0 with a URL. Replication is asynchronous: without
   * it, an entry the old primary took just before a failover is lost, and a confirmation
   * already run would run again. Not acknowledged in time: `StateUnavailableError`.
   */
  replicasToAck?: number;
  /** Told when a consumption or revocation was acknowledged by the primary alone, for want of connected replicas. */
  onLonePrimary?: (connectedReplicas: number) => void;
}

/** The key prefix of a bot's state. */
export function redisKeyPrefix(namespace: string): string {
  return `eleven:sidecar:${namespace}:`;
}

/**
 * A bot's state in Redis, shared by all its sidecars:
 *
 * - `<prefix>replay:<member>:<gid>.<nonce>`: a consumed confirmation, `SET NX PX`.
 * - `<prefix>outcome:<member>:<gid>.<nonce>:<args digest>`: the envelope a
 *   confirmed write answered, `SET PX` (ten minutes longer than the replay key).
 * - `<prefix>revoked:<gid>:<member>`: a revoked grant, `SET PX`.
 * - `<prefix>preview:<member>:<gid>:<op>:<args digest>`: the previews a sidecar gave for
 *   a write, newest first, a list of at most 16 kept six minutes (and the margin) after the
 *   last one given, so a tap on a chip any sidecar gave is checked against it.
 * - `<prefix>rl:grant:<member>:<gid>` and `<prefix>rl:integration:<id>`: run
 *   counters of `rate-limiter-flexible`, living one window (60 s by default).
 *
 * Expiries are relative (`PX`), never absolute (`EXAT`): the time this sidecar
 * would still accept what the entry guards, measured on its own clock, plus
 * `keepMarginMs` (60 s of skew for the other sidecars' clocks and the command
 * timeout for the trip). An absolute expiry is read on Redis's clock: with this
 * sidecar's clock behind, or a command arriving late at the last second, the
 * entry was gone (or never kept) while the sidecar still accepted its confirmation.
 *
 * While Redis is unreachable, whatever demands the shared answer (every run's
 * revocation check, a write's limits and confirmation) gets
 * `StateUnavailableError`; only a read's rate limits fall back to this process.
 */
export class RedisState implements SharedState {
  readonly kind = "redis" as const;
  readonly client: Redis;
  readonly prefix: string;
  private readonly shared: LimiterPair;
  private readonly local: LimiterPair;
  private readonly limits: Required<RateLimits>;
  private readonly admitScript: ReturnType<typeof admitCommand>;
  private readonly consumeScript: ReturnType<typeof consumeCommand>;
  private readonly admitConsumeScript: ReturnType<typeof admitConsumeCommand>;
  private readonly spendScript: ReturnType<typeof spendCommand>;
  private readonly leftScript: ReturnType<typeof leftCommand>;
  /** Revocations this sidecar recorded or read: what reads rely on while Redis is down. */
  private readonly known: RevocationJournal;
  private readonly epoch: StoreEpoch;
  private readonly now: () => number;
  private readonly marginMs: number;
  private readonly replicasToAck: number;
  /** WAIT's own deadline: half the command timeout, so its answer arrives before the command counts as failed. */
  private readonly waitMs: number;
  /** Until then (ms, this sidecar's clock) the primary was found with fewer replicas than `replicasToAck`: WAIT is skipped. */
  private loneUntilMs = 0;
  private readonly onLonePrimary: ((connected: number) => void) | undefined;
  /** The sentinels, asked whether a primary short of replicas stands alone. */
  private readonly sentinelSet: SentinelSet | undefined;

  constructor(options: RedisStateOptions) {
    this.prefix = redisKeyPrefix(options.namespace);
    this.now = options.now ?? Date.now;
    this.marginMs = keepMarginMs(options.commandTimeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS);
    this.replicasToAck = options.replicasToAck ?? ("sentinels" in options ? 1 : 0);
    this.waitMs = Math.max(1, Math.floor((options.commandTimeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS) / 2));
    this.onLonePrimary = options.onLonePrimary;
    this.sentinelSet = "sentinels" in options ? { sentinels: options.sentinels, name: options.name } : undefined;
    this.client = connectRedis("url" in options ? { url: options.url } : { sentinels: options.sentinels, name: options.name }, {
      ...(options.commandTimeoutMs === undefined ? {} : { commandTimeoutMs: options.commandTimeoutMs }),
      ...(options.onError === undefined ? {} : { onError: options.onError }),
    });
    this.known = new RevocationJournal(options.revocationFile);
    this.epoch = new StoreEpoch(this.client, this.prefix, this.now);
    const limits = resolveRateLimits(options.rateLimits);
    this.limits = limits;
    this.admitScript = admitCommand(this.client);
    this.consumeScript = consumeCommand(this.client);
    this.admitConsumeScript = admitConsumeCommand(this.client);
    this.spendScript = spendCommand(this.client);
    this.leftScript = leftCommand(this.client);
    this.shared = {
      grant: new RateLimiterRedis({
        storeClient: this.client,
        keyPrefix: `${this.prefix}rl:grant`,
        rejectIfRedisNotReady: true,
        ...limiterOptions(limits.perGrant),
      }),
      integration: new RateLimiterRedis({
        storeClient: this.client,
        keyPrefix: `${this.prefix}rl:integration`,
        rejectIfRedisNotReady: true,
        ...limiterOptions(limits.perIntegration),
      }),
    };
    this.local = memoryLimiters(limits);
  }

  /** True while commands can be sent. */
  get ready(): boolean {
    return this.client.status === "ready";
  }

  async open(): Promise<void> {
    this.known.load();
    if (!(await waitUntilReady(this.client))) return;
    try {
      // No epoch yet: a new store, or one emptied while this sidecar was away. What it knows goes back either way.
      if (await this.epoch.establish()) await this.writeBackRevocations();
    } catch {
      // learned with the first command that reaches Redis
    }
  }

  async close(): Promise<void> {
    await closeRedis(this.client);
    this.known.close();
  }

  async consumeConfirmation(checked: CheckedConfirmation): Promise<boolean> {
    this.requireReady();
    const outcomeKey = this.outcomeKey(checked);
    try {
      const [epoch, consumed] = consumeReply(
        await this.consumeScript(
          this.epoch.key,
          `${this.prefix}replay:${checked.member}:${checked.key}`,
          outcomeKey,
          this.keepMs(checked.keepUntil),
          this.outcomeMs(checked),
          PENDING_OUTCOME,
        ),
      );
      await this.noteEpoch(epoch);
      // A store that lost its data cannot say whether a confirmation signed before that was used: refused, the member taps again.
      if (this.epoch.refuses(checked.exp)) {
        if (consumed === 1) await this.client.del(outcomeKey);
        return false;
      }
      if (consumed !== 1) return false;
      await this.replicated();
      return true;
    } catch (error) {
      throw unavailable(error);
    }
  }

  private outcomeKey(confirmation: ConfirmationRef): string {
    return `${this.prefix}outcome:${outcomeId(confirmation)}`;
  }

  /** An outcome lives as long as its confirmation could be sent again, plus `OUTCOME_EXTRA_SECONDS`. */
  private outcomeMs(checked: CheckedConfirmation): number {
    return this.keepMs(checked.keepUntil) + OUTCOME_EXTRA_SECONDS * 1000;
  }

  async storeOutcome(checked: CheckedConfirmation, outcome: string): Promise<void> {
    this.requireReady();
    try {
      await this.client.set(this.outcomeKey(checked), outcome, "PX", this.outcomeMs(checked));
    } catch (error) {
      throw unavailable(error);
    }
  }

  async storedOutcome(confirmation: ConfirmationRef): Promise<string | undefined> {
    this.requireReady();
    try {
      return (await this.client.get(this.outcomeKey(confirmation))) ?? undefined;
    } catch (error) {
      throw unavailable(error);
    }
  }

  /** Checks the epoch read beside a command; when the store was emptied, writes back every revocation this sidecar knows. */
  private async noteEpoch(seen: unknown): Promise<void> {
    if ((await this.epoch.observe(typeof seen === "string" ? seen : null)) === "same") return;
    await this.writeBackRevocations();
  }

  private async writeBackRevocations(): Promise<void> {
    const now = Math.floor(this.now() / 1000);
    const pipeline = this.client.pipeline();
    for (const [gid, member, until] of this.known.entries(now)) pipeline.set(`${this.prefix}revoked:${gid}:${member}`, "1", "PX", this.keepMs(until));
    await pipeline.exec();
  }

  async takeRun(call: CallScope, strictness: Strictness): Promise<RateDecision> {
    const { member, gid, integration } = call;
    if (this.ready) {
      try {
        return await consumeBoth(this.shared, member, gid, integration);
      } catch (error) {
        if (strictness === "shared") throw unavailable(error);
      }
    } else if (strictness === "shared") {
      throw unavailable();
    }
    return consumeBoth(this.local, member, gid, integration);
  }

  async revoke(grant: GrantRef, until: number): Promise<void> {
    const { gid, member } = grant;
    this.requireReady();
    try {
      await this.client.set(`${this.prefix}revoked:${gid}:${member}`, "1", "PX", this.keepMs(until));
      await this.replicated();
    } catch (error) {
      throw unavailable(error);
    }
    try {
      this.known.revoke(gid, member, until);
    } catch (error) {
      throw new StateUnavailableError("the revocation journal could not be written", { cause: error });
    }
  }

  async isRevoked(grant: GrantRef, strictness: Strictness): Promise<boolean> {
    const { gid, member } = grant;
    if (this.known.isRevoked(gid, member)) return true;
    if (!this.ready) {
      if (strictness === "shared") throw unavailable();
      return false;
    }
    try {
      const key = `${this.prefix}revoked:${gid}:${member}`;
      const [epoch, ttl] = execResults(await this.client.multi().get(this.epoch.key).pttl(key).exec());
      await this.noteEpoch(epoch);
      const ttlMs = Number(ttl);
      if (ttlMs === -2) return false;
      // Remembered here for as long as Redis keeps it (a key without expiry, never written by us, for an hour).
      this.known.revoke(gid, member, Math.floor(this.now() / 1000) + (ttlMs < 0 ? 3660 : Math.ceil(ttlMs / 1000)));
      return true;
    } catch (error) {
      if (strictness === "shared") throw unavailable(error);
      return false;
    }
  }

  async admit(call: CallScope, countRun: boolean): Promise<Admission> {
    const { gid, member, integration } = call;
    if (this.known.isRevoked(gid, member)) return REVOKED_ADMISSION;
    if (!countRun) return (await this.isRevoked(call, "shared")) ? REVOKED_ADMISSION : { ok: true };
    this.requireReady();
    try {
      const { perGrant, perIntegration } = this.limits;
      const [epoch, revokedTtl, grantCount, grantTtl, integrationCount, integrationTtl] = admitReply(
        await this.admitScript(
          this.epoch.key,
          `${this.prefix}revoked:${gid}:${member}`,
          `${this.prefix}rl:grant:${member}:${gid}`,
          `${this.prefix}rl:integration:${integration}`,
          perGrant.durationSeconds,
          perGrant.points,
          perIntegration.durationSeconds,
          perIntegration.points,
        ),
      );
      await this.noteEpoch(epoch);
      if (revokedTtl !== -2) {
        this.known.revoke(gid, member, Math.floor(this.now() / 1000) + (revokedTtl < 0 ? 3660 : Math.ceil(revokedTtl / 1000)));
        return REVOKED_ADMISSION;
      }
      if (grantCount !== undefined && grantCount > perGrant.points) return { ok: false, scope: "grant", retryAfterSeconds: retryAfterSeconds(grantTtl ?? 0) };
      if (integrationCount !== undefined && integrationCount > perIntegration.points) {
        return { ok: false, scope: "integration", retryAfterSeconds: retryAfterSeconds(integrationTtl ?? 0) };
      }
      return { ok: true };
    } catch (error) {
      throw unavailable(error);
    }
  }

  async admitAndConsume(call: CallScope, checked: CheckedConfirmation): Promise<AdmittedConsumption> {
    const { gid, member, integration } = call;
    if (this.known.isRevoked(gid, member)) return REVOKED_ADMISSION;
    this.requireReady();
    const outcomeKey = this.outcomeKey(checked);
    try {
      const { perGrant, perIntegration } = this.limits;
      const [epoch, revokedTtl, grantCount, grantTtl, integrationCount, integrationTtl, consumed] = admitConsumeReply(
        await this.admitConsumeScript(
          this.epoch.key,
          `${this.prefix}revoked:${gid}:${member}`,
          `${this.prefix}rl:grant:${member}:${gid}`,
          `${this.prefix}rl:integration:${integration}`,
          `${this.prefix}replay:${checked.member}:${checked.key}`,
          outcomeKey,
          perGrant.durationSeconds,
          perGrant.points,
          perIntegration.durationSeconds,
          perIntegration.points,
          this.keepMs(checked.keepUntil),
          this.outcomeMs(checked),
          PENDING_OUTCOME,
        ),
      );
      await this.noteEpoch(epoch);
      if (revokedTtl !== -2) {
        this.known.revoke(gid, member, Math.floor(this.now() / 1000) + (revokedTtl < 0 ? 3660 : Math.ceil(revokedTtl / 1000)));
        return REVOKED_ADMISSION;
      }
      if (grantCount !== undefined && grantCount > perGrant.points) return { ok: false, scope: "grant", retryAfterSeconds: retryAfterSeconds(grantTtl ?? 0) };
      if (integrationCount !== undefined && integrationCount > perIntegration.points) {
        return { ok: false, scope: "integration", retryAfterSeconds: retryAfterSeconds(integrationTtl ?? 0) };
      }
      // A store that lost its data cannot say whether a confirmation signed before that was used: refused, the member taps again.
      if (this.epoch.refuses(checked.exp)) {
        if (consumed === 1) await this.client.del(outcomeKey);
        return { ok: true, consumed: false };
      }
      if (consumed !== 1) return { ok: true, consumed: false };
      await this.replicated();
      return { ok: true, consumed: true };
    } catch (error) {
      throw unavailable(error);
    }
  }

  async rememberPreview(write: WriteSlot, preview: string): Promise<void> {
    this.requireReady();
    const key = `${this.prefix}preview:${previewId(write)}`;
    try {
      execResults(
        await this.client
          .multi()
          .lrem(key, 0, preview)
          .lpush(key, preview)
          .ltrim(key, 0, PREVIEWS_PER_WRITE - 1)
          .pexpire(key, PREVIEW_MEMORY_MS + this.marginMs)
          .exec(),
      );
    } catch (error) {
      throw unavailable(error);
    }
  }

  async givenPreviews(write: WriteSlot): Promise<readonly string[]> {
    this.requireReady();
    try {
      return await this.client.lrange(`${this.prefix}preview:${previewId(write)}`, 0, PREVIEWS_PER_WRITE - 1);
    } catch (error) {
      throw unavailable(error);
    }
  }

  async spendApproval(spend: ApprovalSpend): Promise<ApprovalSpendResult> {
    const { gid: aid, member } = spend.ref;
    if (this.known.isRevoked(aid, member)) return { ok: false, reason: "revoked" };
    this.requireReady();
    const windowMs = spend.perSeconds * 1000;
    try {
      const [epoch, verdict, ttlMs] = spendReply(
        await this.spendScript(
          this.epoch.key,
          `${this.prefix}revoked:${aid}:${member}`,
          `${this.prefix}approval:${member}:${aid}:runs`,
          `${this.prefix}approval:${member}:${aid}:sum`,
          windowMs,
          spend.runs,
          spend.sum === undefined ? "" : String(spend.sum.amount),
          spend.sum === undefined ? "" : String(spend.sum.max),
        ),
      );
      await this.noteEpoch(epoch);
      if (verdict === "revoked") {
        this.known.revoke(aid, member, Math.floor(this.now() / 1000) + (ttlMs < 0 ? 3660 : Math.ceil(ttlMs / 1000)));
        return { ok: false, reason: "revoked" };
      }
      if (verdict !== "ok") return { ok: false, reason: "exhausted", retryAfterSeconds: retryAfterSeconds(ttlMs) };
      // A store emptied within the window forgot what was spent in it: nothing more runs until the window has passed.
      const emptiedAt = this.epoch.emptiedAtMs;
      if (emptiedAt !== undefined && this.now() - emptiedAt < windowMs) {
        return { ok: false, reason: "exhausted", retryAfterSeconds: retryAfterSeconds(emptiedAt + windowMs - this.now()) };
      }
      await this.replicated();
      return { ok: true };
    } catch (error) {
      throw unavailable(error);
    }
  }

  async approvalBudget(spend: Omit<ApprovalSpend, "sum"> & { readonly sumMax?: number }): Promise<ApprovalBudgetLeft> {
    const { gid: aid, member } = spend.ref;
    this.requireReady();
    try {
      const [revokedTtl, runs, ttlMs, spent] = leftReply(
        await this.leftScript(
          `${this.prefix}revoked:${aid}:${member}`,
          `${this.prefix}approval:${member}:${aid}:runs`,
          `${this.prefix}approval:${member}:${aid}:sum`,
        ),
      );
      const nowMs = this.now();
      return {
        runsLeft: Math.max(0, spend.runs - runs),
        ...(spend.sumMax === undefined ? {} : { sumLeft: Math.max(0, spend.sumMax - spent) }),
        resetsAt: Math.ceil((nowMs + Math.max(0, ttlMs)) / 1000),
        revoked: revokedTtl !== -2 || this.known.isRevoked(aid, member),
      };
    } catch (error) {
      throw unavailable(error);
    }
  }

  /** Milliseconds to keep an entry guarding something this sidecar accepts until `until` (Unix seconds, its clock). */
  private keepMs(until: number): number {
    return Math.max(0, until * 1000 - this.now()) + this.marginMs;
  }

  /**
   * Returns once `replicasToAck` replicas hold every write so far, or, when fewer
   * replicas than that are connected to the primary at all and the sentinels say it
   * stands alone (they name it, no failover is under way, every replica they know is
   * down: its replica was promoted when it died), once every connected one does: the
   * primary alone then holds the entry (see the README, "A primary with no replica
   * left"). Throws otherwise (a failover under way: fail closed).
   */
  private async replicated(): Promise<void> {
    if (this.replicasToAck === 0 || this.now() < this.loneUntilMs) return;
    const acknowledged = await this.client.wait(this.replicasToAck, this.waitMs);
    if (acknowledged >= this.replicasToAck) return;
    const info = await this.client.info();
    const connected = connectedReplicasOf(info);
    const runId = runIdOf(info);
    // A primary the sentinels are demoting has lost its replica too: only one they name, with every replica down, stands alone.
    const alone =
      connected < this.replicasToAck &&
      acknowledged >= connected &&
      this.sentinelSet !== undefined &&
      runId !== undefined &&
      (await primaryStandsAlone(this.sentinelSet, runId, this.waitMs));
    if (!alone) throw new Error(`${acknowledged} of ${this.replicasToAck} replicas acknowledged the write`);
    // Asked again in a second, so a replica that attaches is waited for again from then on.
    this.loneUntilMs = this.now() + LONE_PRIMARY_RECHECK_MS;
    this.onLonePrimary?.(connected);
  }

  private requireReady(): void {
    if (!this.ready) throw unavailable();
  }
}

/** How long a primary found without enough replicas is trusted alone before WAIT is tried again. */
const LONE_PRIMARY_RECHECK_MS = 1000;

/** The replies of a MULTI, or the first error among them. */
function execResults(results: [Error | null, unknown][] | null): unknown[] {
  if (results === null) throw new Error("the transaction was aborted");
  return results.map(([error, value]) => {
    if (error !== null) throw error;
    return value;
  });
}

function unavailable(cause?: unknown): StateUnavailableError {
  return new StateUnavailableError("the shared store (Redis) is unreachable", cause === undefined ? undefined : { cause });
}
