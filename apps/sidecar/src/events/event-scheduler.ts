import { canonicalJson, type ManifestEvent } from "@eleven-integrations/schema";
import type { Registry } from "@eleven-integrations/loader";
import type { FastifyBaseLogger } from "fastify";
import type { CallRunner } from "../call/flows.js";
import type { LiveRegistry } from "../registry/live-registry.js";
import type { EventStore, KeptSubscription } from "./event-store.js";
import {
  GRANT_EXPIRING_SECONDS,
  grantExpiring,
  pollStopped,
  registryChanged,
  SUBSCRIPTION_EXPIRING_SECONDS,
  subscriptionExpiring,
  type RegistryChange,
} from "./lifecycle.js";
import { runPoll, type PollOutcome } from "./poll-run.js";

export interface EventSchedulerOptions {
  store: EventStore;
  live: LiveRegistry;
  runner: CallRunner;
  log: () => FastifyBaseLogger;
  /** Overrides every poll's `every` (milliseconds): tests only. */
  pollEveryMs?: number | undefined;
  /** How often the expiries are looked at; default 15 s. */
  lifecycleEveryMs?: number | undefined;
  now?: () => number;
}

/** At most this share of `every` is taken off a poll's next start, so polls of many subscriptions spread out without drifting past `every`. */
const JITTER_SHARE = 0.1;

interface RunningPoll {
  timer: NodeJS.Timeout | undefined;
  busy: boolean;
}

/**
 * Runs the poll subscriptions: each poll event every `every` seconds from the
 * previous scheduled start (less up to a tenth of it, at random), never two at
 * once; the lifecycle sweep; and `registry.changed` when the live registry swaps.
 */
export class EventScheduler {
  readonly #options: EventSchedulerOptions;
  readonly #polls = new Map<string, RunningPoll>();
  #sweep: NodeJS.Timeout | undefined;
  #closed = false;
  readonly #now: () => number;

  constructor(options: EventSchedulerOptions) {
    this.#options = options;
    this.#now = options.now ?? (() => Math.floor(Date.now() / 1000));
  }

  /** Resumes every kept subscription (after a restart: each poll's memory is the store's, so no baseline is taken again). */
  async start(): Promise<void> {
    for (const kept of await this.#options.store.subscriptions()) this.schedule(kept);
    const every = this.#options.lifecycleEveryMs ?? 15_000;
    this.#sweep = setInterval(
      () => void this.sweep().catch((error: unknown) => this.#options.log().warn({ err: error }, "event lifecycle sweep failed")),
      every,
    );
    this.#sweep.unref();
  }

  stop(): void {
    this.#closed = true;
    if (this.#sweep !== undefined) clearInterval(this.#sweep);
    for (const poll of this.#polls.values()) if (poll.timer !== undefined) clearTimeout(poll.timer);
    this.#polls.clear();
  }

  /** Starts (or restarts, with a renewed grant) the polls of a kept subscription. */
  schedule(kept: KeptSubscription): void {
    this.unschedule(kept.sid);
    if (kept.grant === undefined || this.#closed) return;
    for (const event of this.#pollEvents(kept)) {
      const poll: RunningPoll = { timer: undefined, busy: false };
      this.#polls.set(`${kept.sid} ${event.id}`, poll);
      this.#next(kept, event, poll, Date.now());
    }
  }

  unschedule(sid: string): void {
    for (const [key, poll] of this.#polls) {
      if (!key.startsWith(`${sid} `)) continue;
      if (poll.timer !== undefined) clearTimeout(poll.timer);
      this.#polls.delete(key);
    }
  }

  /** The baseline of a new subscription: each poll event run once now, its items remembered, nothing emitted. */
  async baseline(
    kept: KeptSubscription,
  ): Promise<{ ok: true; polls: { event: string; every: number; baseline: number }[] } | Extract<PollOutcome, { ok: false }>> {
    const polls: { event: string; every: number; baseline: number }[] = [];
    for (const event of this.#pollEvents(kept)) {
      const outcome = await this.#poll(kept, event, true);
      if (!outcome.ok) return outcome;
      await this.#options.store.putPollMemory(kept.sid, event.id, outcome.memory);
      polls.push({ event: event.id, every: event.poll?.every ?? 0, baseline: outcome.memory.seen.length });
    }
    return { ok: true, polls };
  }

  /** Emits what is due: `subscription.expiring` a day before, `grant.expiring` five minutes before; drops ended subscriptions. */
  async sweep(): Promise<void> {
    const { store } = this.#options;
    const now = this.#now();
    const due = [];
    for (const kept of await store.subscriptions()) {
      if (kept.exp <= now) {
        this.unschedule(kept.sid);
        await store.removeSubscription(kept.sid);
        continue;
      }
      if (kept.exp - SUBSCRIPTION_EXPIRING_SECONDS <= now) due.push(subscriptionExpiring(kept.sid, kept.integration, kept.exp, now));
      if (kept.gid !== undefined && kept.grantExp !== undefined && kept.grantExp - GRANT_EXPIRING_SECONDS <= now && kept.grantExp > now) {
        due.push(grantExpiring(kept.sid, kept.gid, kept.integration, kept.grantExp, now));
      }
    }
    if (due.length > 0) await store.append(due);
  }

  /** What a registry swap tells the bot: the ops added, changed or removed. */
  async registrySwapped(before: Registry, after: Registry, hash: string): Promise<void> {
    const change = registryChange(before, after);
    if (change.added.length + change.changed.length + change.removed.length === 0) return;
    await this.#options.store.append([registryChanged(hash, change, this.#now())]);
  }

  #pollEvents(kept: KeptSubscription): ManifestEvent[] {
    const manifest = this.#options.live.current().registry.get(kept.integration);
    return (manifest?.events ?? []).filter((event) => event.source === "poll" && kept.events.includes(event.id));
  }

  #next(kept: KeptSubscription, event: ManifestEvent, poll: RunningPoll, scheduledAt: number): void {
    const everyMs = this.#options.pollEveryMs ?? (event.poll?.every ?? 60) * 1000;
    const nextAt = scheduledAt + everyMs - Math.floor(Math.random() * everyMs * JITTER_SHARE);
    poll.timer = setTimeout(() => void this.#tick(kept, event, poll, nextAt), Math.max(0, nextAt - Date.now()));
    poll.timer.unref();
  }

  async #tick(kept: KeptSubscription, event: ManifestEvent, poll: RunningPoll, scheduledAt: number): Promise<void> {
    if (this.#closed || this.#polls.get(`${kept.sid} ${event.id}`) !== poll || poll.busy) return;
    poll.busy = true;
    let stopped = false;
    try {
      stopped = await this.#pollOnce(kept, event);
    } catch (error) {
      this.#options.log().warn({ err: error, sid: kept.sid, event: event.id }, "a poll failed; it runs again at its next time");
    } finally {
      poll.busy = false;
    }
    if (!stopped && !this.#closed && this.#polls.get(`${kept.sid} ${event.id}`) === poll) this.#next(kept, event, poll, scheduledAt);
  }

  /** One scheduled poll; true when the subscription's polls stopped for good. */
  async #pollOnce(kept: KeptSubscription, event: ManifestEvent): Promise<boolean> {
    const { store } = this.#options;
    const now = this.#now();
    const running = this.#options.live.current().registry.manifestHash(kept.integration);
    if (running !== kept.manifestHash) {
      await this.#stop(kept, pollStopped("subscription.ended", kept.sid, kept.gid ?? "", kept.integration, "the manifest it was signed for changed", now));
      return true;
    }
    const outcome = await this.#poll(kept, event, false);
    if (!outcome.ok) {
      const { code, message } = outcome.answer.error;
      if (code === "grant_invalid" || code === "grant_expired") {
        const kind = code === "grant_expired" ? "grant.expired" : "grant.revoked";
        await this.#stop(kept, pollStopped(kind, kept.sid, kept.gid ?? "", kept.integration, message, now));
        return true;
      }
      this.#options.log().warn({ sid: kept.sid, event: event.id, code }, "a poll was refused; it runs again at its next time");
      return false;
    }
    // Events first, then the memory: a crash between them emits the same event_id again, which the store drops.
    if (outcome.events.length > 0) await store.append(outcome.events);
    await store.putPollMemory(kept.sid, event.id, outcome.memory);
    return false;
  }

  async #stop(kept: KeptSubscription, lifecycle: Parameters<EventStore["append"]>[0][number]): Promise<void> {
    this.unschedule(kept.sid);
    await this.#options.store.append([lifecycle]);
    // The subscription stays kept without its grant: a renewed grant sent to /v1/subscriptions resumes it.
    const { grant: _grant, gid: _gid, grantExp: _exp, ...rest } = kept;
    await this.#options.store.putSubscription(rest);
  }

  async #poll(kept: KeptSubscription, event: ManifestEvent, baseline: boolean): Promise<PollOutcome> {
    // No memory on a scheduled poll (the store was lost): a new baseline, never the whole list again as news.
    const memory = baseline ? undefined : await this.#options.store.pollMemory(kept.sid, event.id);
    return await runPoll({
      sid: kept.sid,
      integration: kept.integration,
      event,
      args: kept.args,
      grant: kept.grant ?? "",
      memory,
      startedAt: new Date(),
      snapshot: this.#options.live.current(),
      runner: this.#options.runner,
      log: this.#options.log(),
    });
  }
}

/** The ops (`integration/op`) one registry has and the other has not, or has with another declaration. */
export function registryChange(before: Registry, after: Registry): RegistryChange {
  const ops = (registry: Registry) => {
    const all = new Map<string, string>();
    for (const manifest of registry.integrations()) for (const op of manifest.ops) all.set(`${manifest.id}/${op.id}`, canonicalJson(op));
    return all;
  };
  const old = ops(before);
  const fresh = ops(after);
  return {
    added: [...fresh.keys()].filter((id) => !old.has(id)).sort(),
    changed: [...fresh.keys()].filter((id) => old.has(id) && old.get(id) !== fresh.get(id)).sort(),
    removed: [...old.keys()].filter((id) => !fresh.has(id)).sort(),
  };
}
