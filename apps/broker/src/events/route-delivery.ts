import { createHash } from "node:crypto";
import { matchesSubscriptionArgs, type WebhookEvent } from "@eleven-integrations/events";
import { sealToPublicKey } from "@eleven-integrations/grants";
import type { Manifest } from "@eleven-integrations/schema";
import type { StoredRoute } from "./event-store.js";

/** One event as a bot opens it from its stream. */
export interface DeliveredEvent {
  event_id: string;
  sid: string;
  integration: string;
  event: string;
  /** Unix seconds the broker received it. */
  at: number;
  data: Record<string, unknown>;
  line: string;
}

/** The same for every retry of one delivery, so the sidecar drops a copy it already gave the bot. */
export function eventIdOf(integration: string, deliveryId: string): string {
  return `ev_${createHash("sha256").update(`${integration}\u0000${deliveryId}`, "utf8").digest("base64url").slice(0, 32)}`;
}

/**
 * The routes that want this event (its type among theirs, their args matching the payload), and
 * for each the event sealed to its bot. A route of another account never gets here: routes are
 * kept per account.
 */
export function sealForRoutes(
  manifest: Manifest,
  built: WebhookEvent,
  body: Uint8Array,
  routes: readonly StoredRoute[],
  atSeconds: number,
): { bot: string; sealed: string }[] {
  const declared = manifest.events?.find((event) => event.id === built.event);
  if (declared === undefined) return [];
  const event_id = eventIdOf(manifest.id, built.delivery_id);
  return routes
    .filter((route) => route.events.includes(built.event) && matchesSubscriptionArgs(declared, route.args, body))
    .map((route) => {
      const delivered: DeliveredEvent = {
        event_id,
        sid: route.sid,
        integration: manifest.id,
        event: built.event,
        at: atSeconds,
        data: built.data,
        line: built.line,
      };
      return { bot: route.bot, sealed: sealToPublicKey(JSON.stringify(delivered), route.bot) };
    });
}
