import type { WebhookRefusal } from "@eleven-integrations/events";

/** Every label value `eleven_broker_webhooks_total{outcome}` takes: a closed list. */
export const WEBHOOK_OUTCOMES = [
  "stored",
  "duplicate",
  "unrouted",
  "undeclared_event",
  "handshake",
  "unknown_integration",
  "no_secret",
  "missing_signature",
  "bad_signature",
  "stale",
  "malformed",
  "too_large",
  "replayed",
  "unavailable",
] as const satisfies readonly (string | WebhookRefusal)[];
export type WebhookOutcome = (typeof WEBHOOK_OUTCOMES)[number];

/** One provider post's outcome, for metrics: the integration is a registry id or `unknown`. */
export interface WebhookReport {
  integration: string;
  outcome: WebhookOutcome;
}
