import type { DeliveredEvent } from "@eleven-integrations/sidecar-protocol";
import { lifecycleEventId } from "./event-store.js";

/** The integration id lifecycle events carry: they are the sidecar's own, not a provider's. */
export const LIFECYCLE_INTEGRATION = "eleven";
/** `subscription.expiring` comes this long before the subscription ends. */
export const SUBSCRIPTION_EXPIRING_SECONDS = 24 * 60 * 60;
/** `grant.expiring` comes this long before a poll's grant ends, so the member's client can renew it. */
export const GRANT_EXPIRING_SECONDS = 5 * 60;

function isoOf(unixSeconds: number): string {
  return new Date(unixSeconds * 1000).toISOString();
}

/** One lifecycle event, its id stable for its kind and subject so it reaches the bot once. */
export function lifecycleEvent(kind: string, sid: string, subject: string, data: Record<string, unknown>, line: string, at: number): DeliveredEvent {
  return { event_id: lifecycleEventId(kind, subject), sid, integration: LIFECYCLE_INTEGRATION, event: kind, at, data, line };
}

export function subscriptionExpiring(sid: string, integration: string, exp: number, at: number): DeliveredEvent {
  return lifecycleEvent(
    "subscription.expiring",
    sid,
    sid,
    { sid, integration, exp },
    `The ${integration} subscription ends at ${isoOf(exp)}: ask the member to sign a new one`,
    at,
  );
}

export function grantExpiring(sid: string, gid: string, integration: string, exp: number, at: number): DeliveredEvent {
  return lifecycleEvent(
    "grant.expiring",
    sid,
    // Once per subscription and grant: each subscription polling under it is told, and a renewed grant is warned again.
    `${sid} ${gid}`,
    { sid, gid, integration, exp },
    `The ${integration} grant the subscription polls under ends at ${isoOf(exp)}: send a renewed grant to /v1/subscriptions`,
    at,
  );
}

/** A poll stopped: its grant was revoked (`grant.revoked`) or expired (`grant.expired`), or the manifest it was signed for changed (`subscription.ended`). */
export function pollStopped(
  kind: "grant.revoked" | "grant.expired" | "subscription.ended",
  sid: string,
  gid: string,
  integration: string,
  reason: string,
  at: number,
): DeliveredEvent {
  return lifecycleEvent(kind, sid, `${sid} ${gid}`, { sid, gid, integration, reason }, `The ${integration} subscription stopped polling: ${reason}`, at);
}

/** The ops the registry swap added, changed or removed, per integration. */
export interface RegistryChange {
  added: string[];
  changed: string[];
  removed: string[];
}

export function registryChanged(hash: string, change: RegistryChange, at: number): DeliveredEvent {
  const parts = [
    change.added.length > 0 ? `added ${change.added.join(", ")}` : "",
    change.changed.length > 0 ? `changed ${change.changed.join(", ")}` : "",
    change.removed.length > 0 ? `removed ${change.removed.join(", ")}` : "",
  ].filter((part) => part !== "");
  return lifecycleEvent("registry.changed", "", hash, { hash, ...change }, `The registry changed: ${parts.join("; ")}`, at);
}
