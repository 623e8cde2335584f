import { createHash } from "node:crypto";
import type { DeliveredEvent } from "@eleven-integrations/sidecar-protocol";

/** How long events are kept for the bot to read (at least 24 hours, as the broker keeps its own). */
export const EVENT_RETENTION_SECONDS = 24 * 60 * 60;
/** Most events the local journal keeps, whatever their age. */
export const MAX_KEPT_EVENTS = 10_000;
/** An event-bound approval runs only for an event delivered this recently. */
export const EVENT_APPROVAL_WINDOW_SECONDS = 60 * 60;

/** A subscription this sidecar runs, as kept across restarts: the sealed tokens (only this bot opens them) and what it read from them. */
export interface KeptSubscription {
  sid: string;
  member: string;
  integration: string;
  events: string[];
  args?: Readonly<Record<string, string | number | boolean>>;
  /** The manifest hash the member signed for: a changed manifest ends the polls. */
  manifestHash: string;
  exp: number;
  /** The sealed subscription (`es1.`). */
  subscription: string;
  /** The sealed grant a poll subscription runs under (`eg1.`): sealed to the bot, never opened outside a call. */
  grant?: string;
  gid?: string;
  grantExp?: number;
}

/** What the poll of one event of one subscription remembers: the keys it has seen (bounded) and when its last good poll started. */
export interface PollMemory {
  seen: string[];
  /** ISO 8601 UTC start of the last successful poll. */
  since: string;
}

/** When an event was handed to the bot (an event-bound approval names it). */
export interface DeliveryRecord {
  event: string;
  integration: string;
  deliveredAt: number;
}

export interface EventPage {
  events: DeliveredEvent[];
  next: string;
  truncated?: true;
}

/**
 * The bot's events and subscriptions: Redis when configured, else this process
 * and a 0600 journal. Events are appended once by `event_id` (a second append of
 * the same id is dropped), read after a cursor, and remembered as delivered.
 */
export interface EventStore {
  open(): Promise<void>;
  close(): Promise<void>;
  /** Appends the events whose id was never appended; answers how many were new. */
  append(events: readonly DeliveredEvent[]): Promise<number>;
  /** Events after `after` (oldest first, at most `limit`); a cursor this store cannot continue answers `truncated: true` from the oldest kept. */
  read(after: string | undefined, limit: number): Promise<EventPage>;
  /** Resolves when an event may have been appended, or after `ms`. */
  waitForAppend(ms: number, signal?: AbortSignal): Promise<void>;
  markDelivered(events: readonly DeliveredEvent[], now: number): Promise<void>;
  delivery(eventId: string): Promise<DeliveryRecord | undefined>;
  putSubscription(subscription: KeptSubscription): Promise<void>;
  removeSubscription(sid: string): Promise<void>;
  subscriptions(): Promise<KeptSubscription[]>;
  pollMemory(sid: string, event: string): Promise<PollMemory | undefined>;
  putPollMemory(sid: string, event: string, memory: PollMemory): Promise<void>;
}

/** Most item keys one poll remembers: older keys are forgotten first. */
export const MAX_SEEN_KEYS = 1_000;

/** A stable id: the same item of the same subscription's event is always the same `event_id`. */
export function polledEventId(sid: string, event: string, key: string): string {
  return `evp_${createHash("sha256").update(`${sid}\u0000${event}\u0000${key}`).digest("base64url").slice(0, 32)}`;
}

/** A lifecycle event's id: one per kind and subject (and moment, for ones that may recur). */
export function lifecycleEventId(kind: string, subject: string): string {
  return `evl_${createHash("sha256").update(`${kind}\u0000${subject}`).digest("base64url").slice(0, 32)}`;
}
