import { randomBytes } from "node:crypto";
import type { DeliveredEvent } from "@eleven-integrations/sidecar-protocol";
import { LineJournal } from "../audit/line-journal.js";
import {
  EVENT_APPROVAL_WINDOW_SECONDS,
  EVENT_RETENTION_SECONDS,
  MAX_KEPT_EVENTS,
  type DeliveryRecord,
  type EventPage,
  type EventStore,
  type KeptSubscription,
  type PollMemory,
} from "./event-store.js";

/** One line of the journal. */
type Entry =
  | { k: "epoch"; epoch: string }
  | { k: "trim"; through: number }
  | { k: "e"; seq: number; ev: DeliveredEvent }
  | { k: "d"; id: string; rec: DeliveryRecord }
  | { k: "s"; sub: KeptSubscription }
  | { k: "u"; sid: string }
  | { k: "p"; sid: string; event: string; mem: PollMemory };

const CURSOR = /^([A-Za-z0-9_-]{1,32})\.([0-9]{1,15})$/;

/**
 * A lone sidecar's events and subscriptions: in memory, every change appended
 * (flushed) to a 0600 journal read back and compacted at start. The journal's
 * epoch (random, written once) is in every cursor, so a journal that was lost
 * answers an old cursor `truncated: true` instead of a silent hole. Without a
 * file: memory only (tests).
 */
export class LocalEventStore implements EventStore {
  readonly #file: LineJournal | undefined;
  readonly #now: () => number;
  #epoch = randomBytes(9).toString("base64url");
  #events: { seq: number; ev: DeliveredEvent }[] = [];
  #ids = new Set<string>();
  #seq = 0;
  /** The highest sequence number dropped by retention: a cursor below it has a gap. */
  #trimmedThrough = 0;
  #deliveries = new Map<string, DeliveryRecord>();
  #subscriptions = new Map<string, KeptSubscription>();
  #polls = new Map<string, PollMemory>();
  #waiters = new Set<() => void>();
  #linesSinceCompaction = 0;

  constructor(path: string | undefined, now: () => number = () => Math.floor(Date.now() / 1000)) {
    this.#file = path === undefined ? undefined : new LineJournal(path);
    this.#now = now;
  }

  async open(): Promise<void> {
    if (this.#file === undefined || this.#file.isOpen) return;
    let epoch: string | undefined;
    for (const line of this.#file.readLines()) {
      let entry: Entry;
      try {
        entry = JSON.parse(line) as Entry;
      } catch {
        continue;
      }
      if (entry.k === "epoch") epoch = entry.epoch;
      else this.#apply(entry);
    }
    if (epoch !== undefined) this.#epoch = epoch;
    this.#trim();
    this.#compact();
  }

  async close(): Promise<void> {
    this.#file?.close();
    for (const wake of this.#waiters) wake();
  }

  async append(events: readonly DeliveredEvent[]): Promise<number> {
    let added = 0;
    for (const ev of events) {
      if (this.#ids.has(ev.event_id)) continue;
      const entry: Entry = { k: "e", seq: this.#seq + 1, ev };
      this.#write(entry);
      this.#apply(entry);
      added += 1;
    }
    if (added > 0) {
      this.#trim();
      for (const wake of [...this.#waiters]) wake();
    }
    return added;
  }

  async read(after: string | undefined, limit: number): Promise<EventPage> {
    this.#trim();
    let from = 0;
    let truncated = false;
    if (after !== undefined) {
      const match = CURSOR.exec(after);
      if (match === null || match[1] !== this.#epoch || Number(match[2]) > this.#seq) truncated = true;
      else {
        from = Number(match[2]);
        if (from < this.#trimmedThrough) truncated = true;
      }
    }
    if (truncated) from = this.#trimmedThrough;
    const page = this.#events.filter((kept) => kept.seq > from).slice(0, limit);
    const last = page.at(-1)?.seq ?? Math.max(from, truncated ? this.#trimmedThrough : from);
    return { events: page.map((kept) => kept.ev), next: `${this.#epoch}.${last}`, ...(truncated ? { truncated: true as const } : {}) };
  }

  waitForAppend(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.#waiters.delete(done);
        signal?.removeEventListener("abort", done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.#waiters.add(done);
      signal?.addEventListener("abort", done, { once: true });
    });
  }

  async markDelivered(events: readonly DeliveredEvent[], now: number): Promise<void> {
    for (const ev of events) {
      if (this.#deliveries.has(ev.event_id)) continue;
      const entry: Entry = { k: "d", id: ev.event_id, rec: { event: ev.event, integration: ev.integration, deliveredAt: now } };
      this.#write(entry);
      this.#apply(entry);
    }
  }

  async delivery(eventId: string): Promise<DeliveryRecord | undefined> {
    const record = this.#deliveries.get(eventId);
    if (record === undefined || record.deliveredAt + EVENT_APPROVAL_WINDOW_SECONDS < this.#now()) return undefined;
    return record;
  }

  async putSubscription(subscription: KeptSubscription): Promise<void> {
    const entry: Entry = { k: "s", sub: subscription };
    this.#write(entry);
    this.#apply(entry);
  }

  async removeSubscription(sid: string): Promise<void> {
    const entry: Entry = { k: "u", sid };
    this.#write(entry);
    this.#apply(entry);
  }

  async subscriptions(): Promise<KeptSubscription[]> {
    return [...this.#subscriptions.values()];
  }

  async pollMemory(sid: string, event: string): Promise<PollMemory | undefined> {
    return this.#polls.get(`${sid} ${event}`);
  }

  async putPollMemory(sid: string, event: string, mem: PollMemory): Promise<void> {
    const entry: Entry = { k: "p", sid, event, mem };
    this.#write(entry);
    this.#apply(entry);
  }

  #apply(entry: Entry): void {
    switch (entry.k) {
      case "e":
        if (this.#ids.has(entry.ev.event_id)) return;
        this.#events.push({ seq: entry.seq, ev: entry.ev });
        this.#ids.add(entry.ev.event_id);
        this.#seq = Math.max(this.#seq, entry.seq);
        return;
      case "d":
        this.#deliveries.set(entry.id, entry.rec);
        return;
      case "s":
        this.#subscriptions.set(entry.sub.sid, entry.sub);
        return;
      case "u":
        this.#subscriptions.delete(entry.sid);
        for (const key of [...this.#polls.keys()]) if (key.startsWith(`${entry.sid} `)) this.#polls.delete(key);
        return;
      case "p":
        this.#polls.set(`${entry.sid} ${entry.event}`, entry.mem);
        return;
      case "trim":
        this.#trimmedThrough = Math.max(this.#trimmedThrough, entry.through);
        this.#seq = Math.max(this.#seq, entry.through);
        return;
      case "epoch":
        return;
    }
  }

  /** Drops events past retention (by age, then by count) and deliveries older than an approval may name. */
  #trim(): void {
    const oldest = this.#now() - EVENT_RETENTION_SECONDS;
    let drop = 0;
    while (drop < this.#events.length && ((this.#events[drop]?.ev.at ?? 0) < oldest || this.#events.length - drop > MAX_KEPT_EVENTS)) drop += 1;
    if (drop > 0) {
      const dropped = this.#events.splice(0, drop);
      for (const kept of dropped) this.#ids.delete(kept.ev.event_id);
      this.#trimmedThrough = Math.max(this.#trimmedThrough, dropped.at(-1)?.seq ?? 0);
    }
    for (const [id, record] of this.#deliveries) if (record.deliveredAt + EVENT_APPROVAL_WINDOW_SECONDS < this.#now()) this.#deliveries.delete(id);
  }

  #write(entry: Entry): void {
    if (this.#file === undefined) return;
    this.#file.append(JSON.stringify(entry));
    this.#linesSinceCompaction += 1;
    if (this.#linesSinceCompaction > 4 * MAX_KEPT_EVENTS) {
      this.#trim();
      this.#compact();
    }
  }

  /** Rewrites the journal with what is kept now, the trim mark first so a cursor into the dropped part still answers `truncated`. */
  #compact(): void {
    if (this.#file === undefined) return;
    const lines: string[] = [JSON.stringify({ k: "epoch", epoch: this.#epoch } satisfies Entry)];
    if (this.#trimmedThrough > 0) lines.push(JSON.stringify({ k: "trim", through: this.#trimmedThrough } satisfies Entry));
    for (const kept of this.#events) lines.push(JSON.stringify({ k: "e", seq: kept.seq, ev: kept.ev } satisfies Entry));
    for (const [id, rec] of this.#deliveries) lines.push(JSON.stringify({ k: "d", id, rec } satisfies Entry));
    for (const sub of this.#subscriptions.values()) lines.push(JSON.stringify({ k: "s", sub } satisfies Entry));
    for (const [key, mem] of this.#polls) {
      const [sid = "", event = ""] = key.split(" ");
      lines.push(JSON.stringify({ k: "p", sid, event, mem } satisfies Entry));
    }
    this.#file.rewrite(lines);
    this.#linesSinceCompaction = 0;
  }
}
