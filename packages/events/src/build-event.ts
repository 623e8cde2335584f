import { renderPreview } from "@eleven-integrations/grants";
import { compilePick } from "@eleven-integrations/loader";
import { valueAtDotPath, type Manifest, type ManifestEvent, type WebhookDialect } from "@eleven-integrations/schema";
import type { WebhookHeaders } from "./header-bag.js";
import { payloadOf, scalarText, textAt } from "./request-values.js";

/** One event as a bot receives its content: the declared id, only the picked fields, and the rendered line. */
export interface BuiltEvent {
  event: string;
  /** The picked fields by their declared path (`{ "issue.title": "…" }`), nothing else. */
  data: Record<string, unknown>;
  /** The manifest's `line` rendered over `data`, each value neutralised as on a chip. */
  line: string;
}

export interface WebhookEvent extends BuiltEvent {
  /** The dedup key, from where the manifest says it is. */
  delivery_id: string;
  /** The provider account the event belongs to, where the manifest says where it is. */
  account?: string;
}

/** Why a payload makes no event: not one the manifest declares (fail closed), or not what the declaration reads. */
export type EventRefusal = "undeclared_event" | "malformed";

export type BuildEventResult<T extends BuiltEvent> = ({ ok: true } & T) | { ok: false; reason: EventRefusal };

function picked(event: ManifestEvent, value: unknown): Record<string, unknown> | null {
  const data = compilePick(event.pick)(value);
  if (data === null || typeof data !== "object" || Array.isArray(data)) return null;
  return { ...(data as Record<string, unknown>) };
}

function built(event: ManifestEvent, data: Record<string, unknown>): BuiltEvent {
  return { event: event.id, data, line: renderPreview(event.line, data) };
}

/** Whether every type condition of a webhook event holds for this request. */
function isThisEvent(event: ManifestEvent, headers: WebhookHeaders, payload: Record<string, unknown>): boolean {
  const webhook = event.webhook;
  if (event.source !== "webhook" || webhook === undefined) return false;
  for (const condition of webhook.type) {
    const value = textAt(condition, headers, payload);
    if (value === undefined || !condition.in.includes(value)) return false;
  }
  return true;
}

export interface WebhookEventInput {
  manifest: Pick<Manifest, "events">;
  /** The dialect the request was verified with: only events declared with it match. */
  dialect: WebhookDialect;
  headers: WebhookHeaders;
  /** The verified raw body. */
  body: Uint8Array;
}

/**
 * Turns a verified webhook delivery into the event the manifest declares for it: the first
 * webhook event (in the manifest's order) verified with this dialect whose every type condition
 * holds. No such event is `undeclared_event` (never forwarded); a body the declaration cannot
 * read, or no delivery id where the manifest says it is, is `malformed`. Pure.
 */
export function webhookEvent(input: WebhookEventInput): BuildEventResult<WebhookEvent> {
  const payload = payloadOf(input.body);
  if (payload === null) return { ok: false, reason: "malformed" };
  const event = (input.manifest.events ?? []).find(
    (candidate) => candidate.webhook?.verify === input.dialect && isThisEvent(candidate, input.headers, payload),
  );
  if (event === undefined) return { ok: false, reason: "undeclared_event" };
  const webhook = event.webhook as NonNullable<ManifestEvent["webhook"]>;
  const deliveryId = textAt(webhook.delivery, input.headers, payload);
  if (deliveryId === undefined || deliveryId.length === 0) return { ok: false, reason: "malformed" };
  const data = picked(event, payload);
  if (data === null) return { ok: false, reason: "malformed" };
  const result: { ok: true } & WebhookEvent = { ok: true, ...built(event, data), delivery_id: deliveryId };
  const account = webhook.account === undefined ? undefined : textAt(webhook.account, input.headers, payload);
  if (account !== undefined) result.account = account;
  return result;
}

export interface PolledEventInput {
  manifest: Pick<Manifest, "events">;
  /** The poll event's id. */
  event: string;
  /** One item of the poll op's picked result (its fields by their picked path). */
  item: unknown;
}

/**
 * Turns one polled item into its event: only a poll event the manifest declares (else
 * `undeclared_event`), only its picked fields (read as the op's picked path, `"owner.login"`, or
 * through the item's nesting), and its line. The item's `key` must be present (`malformed`).
 */
export function polledEvent(input: PolledEventInput): BuildEventResult<BuiltEvent> {
  const event = (input.manifest.events ?? []).find((candidate) => candidate.id === input.event && candidate.source === "poll");
  if (event === undefined || event.poll === undefined) return { ok: false, reason: "undeclared_event" };
  const item = input.item;
  if (item === null || typeof item !== "object" || Array.isArray(item)) return { ok: false, reason: "malformed" };
  if (scalarText(fieldOf(item as Record<string, unknown>, event.poll.key)) === undefined) return { ok: false, reason: "malformed" };
  const data: Record<string, unknown> = {};
  for (const field of event.pick.fields ?? []) {
    const value = fieldOf(item as Record<string, unknown>, field);
    if (value !== undefined) data[field] = value;
  }
  return { ok: true, ...built(event, data) };
}

/** The key of a polled item (what the sidecar remembers as seen), or undefined. */
export function polledItemKey(event: ManifestEvent, item: unknown): string | undefined {
  if (event.poll === undefined || item === null || typeof item !== "object" || Array.isArray(item)) return undefined;
  return scalarText(fieldOf(item as Record<string, unknown>, event.poll.key));
}

function fieldOf(item: Record<string, unknown>, path: string): unknown {
  if (Object.hasOwn(item, path)) return item[path];
  return valueAtDotPath(item, path.split("."));
}

/**
 * Whether a delivery passes a subscription's filter args: every arg must be one the event
 * declares with a path (else false: fail closed), and the payload's value there must equal it.
 */
export function matchesSubscriptionArgs(
  event: ManifestEvent,
  args: Readonly<Record<string, string | number | boolean>> | undefined,
  body: Uint8Array,
): boolean {
  if (args === undefined) return true;
  const payload = payloadOf(body);
  if (payload === null) return false;
  for (const [name, wanted] of Object.entries(args)) {
    const declared = event.args?.[name];
    if (declared?.path === undefined) return false;
    if (scalarText(valueAtDotPath(payload, declared.path.split("."))) !== String(wanted)) return false;
  }
  return true;
}
