import { randomBytes } from "node:crypto";
import type { DeliveredEvent } from "@eleven-integrations/sidecar-protocol";
import type { Redis } from "ioredis";
import {
  EVENT_APPROVAL_WINDOW_SECONDS,
  EVENT_RETENTION_SECONDS,
  type DeliveryRecord,
  type EventPage,
  type EventStore,
  type KeptSubscription,
  type PollMemory,
} from "./event-store.js";
import type { LocalEventStore } from "./local-event-store.js";

const CURSOR = /^([A-Za-z0-9_-]{1,32})\.([0-9]{1,15}-[0-9]{1,10})$/;
/** How long an appended event's id is remembered against a second append: past the stream's own retention. */
const ID_TTL_SECONDS = EVENT_RETENTION_SECONDS + 3_600;

// Appends once by event id: the id key set first (NX), then XADD trimming by age (MINID, ~).
const APPEND = `
if redis.call('SET', KEYS[2], '1', 'NX', 'EX', ARGV[3]) then
  return redis.call('XADD', KEYS[1], 'MINID', '~', ARGV[1], '*', 'e', ARGV[2])
end
return false`;

/**
 * The bot's events in Redis, shared by every sidecar of the bot: a Stream
 * (`XADD ... MINID ~` keeps at least 24 hours, `XRANGE` after the cursor), each
 * event id kept 25 hours against a second append, deliveries an hour, the
 * subscriptions and poll memories in hashes. A random epoch key is in every
 * cursor: a Redis that lost its data has another, and an old cursor answers
 * `truncated: true`. The subscriptions are also written to the sidecar's own
 * journal and written back to a Redis that lost them.
 */
export class RedisEventStore implements EventStore {
  readonly #client: Redis;
  readonly #prefix: string;
  readonly #local: LocalEventStore;
  readonly #waiters = new Set<() => void>();

  constructor(client: Redis, prefix: string, local: LocalEventStore) {
    this.#client = client;
    this.#prefix = `${prefix}ev:`;
    this.#local = local;
  }

  async open(): Promise<void> {
    await this.#local.open();
  }

  async close(): Promise<void> {
    await this.#local.close();
    for (const wake of [...this.#waiters]) wake();
  }

  async #epoch(): Promise<string> {
    const key = `${this.#prefix}epoch`;
    await this.#client.set(key, randomBytes(9).toString("base64url"), "NX");
    return (await this.#client.get(key)) ?? "";
  }

  async append(events: readonly DeliveredEvent[]): Promise<number> {
    let added = 0;
    const minId = `${(Math.floor(Date.now() / 1000) - EVENT_RETENTION_SECONDS) * 1000}`;
    await this.#epoch();
    for (const ev of events) {
      const id = await this.#client.eval(
        APPEND,
        2,
        `${this.#prefix}stream`,
        `${this.#prefix}id:${ev.event_id}`,
        minId,
        JSON.stringify(ev),
        String(ID_TTL_SECONDS),
      );
      if (id !== null) added += 1;
    }
    if (added > 0) for (const wake of [...this.#waiters]) wake();
    return added;
  }

  async read(after: string | undefined, limit: number): Promise<EventPage> {
    const epoch = await this.#epoch();
    const stream = `${this.#prefix}stream`;
    let from = "-";
    let truncated = false;
    if (after !== undefined) {
      const match = CURSOR.exec(after);
      if (match === null || match[1] !== epoch) truncated = true;
      else {
        from = `(${match[2]}`;
        const trimmedThrough = await this.#trimmedThrough(stream);
        if (trimmedThrough !== undefined && compareIds(match[2] ?? "0-0", trimmedThrough) < 0) {
          truncated = true;
          from = "-";
        }
      }
    }
    const entries = (await this.#client.xrange(stream, from, "+", "COUNT", limit)) as [string, string[]][];
    const events = entries.map(([, fields]) => JSON.parse(fields[1] ?? "{}") as DeliveredEvent);
    const last = entries.at(-1)?.[0] ?? (from.startsWith("(") ? from.slice(1) : "0-0");
    return { events, next: `${epoch}.${last}`, ...(truncated ? { truncated: true as const } : {}) };
  }

  /** The newest id trimmed off the stream (Redis 7's `max-deleted-entry-id`), or undefined when none was. */
  async #trimmedThrough(stream: string): Promise<string | undefined> {
    let info: unknown[];
    try {
      info = (await this.#client.call("XINFO", "STREAM", stream)) as unknown[];
    } catch {
      return undefined; // no stream yet
    }
    const at = info.indexOf("max-deleted-entry-id");
    const value = at >= 0 ? String(info[at + 1]) : "0-0";
    return value === "0-0" ? undefined : value;
  }

  waitForAppend(ms: number, signal?: AbortSignal): Promise<void> {
    // Another sidecar of the bot may append: wake at least every 250 ms to look.
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.#waiters.delete(done);
        signal?.removeEventListener("abort", done);
        resolve();
      };
      const timer = setTimeout(done, Math.min(ms, 250));
      this.#waiters.add(done);
      signal?.addEventListener("abort", done, { once: true });
    });
  }

  async markDelivered(events: readonly DeliveredEvent[], now: number): Promise<void> {
    for (const ev of events) {
      const record: DeliveryRecord = { event: ev.event, integration: ev.integration, deliveredAt: now };
      await this.#client.set(`${this.#prefix}delivered:${ev.event_id}`, JSON.stringify(record), "EX", EVENT_APPROVAL_WINDOW_SECONDS, "NX");
    }
  }

  async delivery(eventId: string): Promise<DeliveryRecord | undefined> {
    const text = await this.#client.get(`${this.#prefix}delivered:${eventId}`);
    return text === null ? undefined : (JSON.parse(text) as DeliveryRecord);
  }

  async putSubscription(subscription: KeptSubscription): Promise<void> {
    await this.#local.putSubscription(subscription);
    await this.#client.hset(`${this.#prefix}subs`, subscription.sid, JSON.stringify(subscription));
  }

  async removeSubscription(sid: string): Promise<void> {
    await this.#local.removeSubscription(sid);
    await this.#client.hdel(`${this.#prefix}subs`, sid);
    const polls = await this.#client.hkeys(`${this.#prefix}polls`);
    const mine = polls.filter((field) => field.startsWith(`${sid} `));
    if (mine.length > 0) await this.#client.hdel(`${this.#prefix}polls`, ...mine);
  }

  async subscriptions(): Promise<KeptSubscription[]> {
    let shared: Record<string, string>;
    try {
      shared = await this.#client.hgetall(`${this.#prefix}subs`);
    } catch {
      // Redis away (at start, say): this sidecar's own journal still knows what it runs.
      return await this.#local.subscriptions();
    }
    const all = new Map(Object.entries(shared).map(([sid, text]) => [sid, JSON.parse(text) as KeptSubscription]));
    // Ones this sidecar kept that Redis lost: written back.
    for (const kept of await this.#local.subscriptions()) {
      if (all.has(kept.sid)) continue;
      await this.#client.hset(`${this.#prefix}subs`, kept.sid, JSON.stringify(kept));
      all.set(kept.sid, kept);
    }
    return [...all.values()];
  }

  async pollMemory(sid: string, event: string): Promise<PollMemory | undefined> {
    const text = await this.#client.hget(`${this.#prefix}polls`, `${sid} ${event}`);
    return text === null ? undefined : (JSON.parse(text) as PollMemory);
  }

  async putPollMemory(sid: string, event: string, memory: PollMemory): Promise<void> {
    await this.#client.hset(`${this.#prefix}polls`, `${sid} ${event}`, JSON.stringify(memory));
  }
}

function compareIds(a: string, b: string): number {
  const [am = 0, as = 0] = a.split("-").map(Number);
  const [bm = 0, bs = 0] = b.split("-").map(Number);
  return am === bm ? as - bs : am - bm;
}
