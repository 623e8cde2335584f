/** Why a webhook delivery was refused. `replayed` is never answered by `verifyWebhook`: the caller's delivery-id store decides it. */
export type WebhookRefusal = "no_secret" | "missing_signature" | "bad_signature" | "stale" | "replayed" | "malformed" | "too_large";

/** Every refusal reason, in the order `verifyWebhook` decides them (`replayed` last, the caller's). */
export const WEBHOOK_REFUSALS: readonly WebhookRefusal[] = Object.freeze([
  "too_large",
  "no_secret",
  "missing_signature",
  "malformed",
  "bad_signature",
  "stale",
  "replayed",
]);

export interface WebhookAccepted {
  ok: true;
  /** The provider's delivery id where the dialect carries one in a signed or documented header (the dedup key). */
  delivery_id?: string;
  /** The signed timestamp in Unix seconds, where the dialect signs one. */
  timestamp?: number;
}

export interface WebhookRefused {
  ok: false;
  reason: WebhookRefusal;
}

export type VerifyWebhookResult = WebhookAccepted | WebhookRefused;

export function refuse(reason: WebhookRefusal): WebhookRefused {
  return { ok: false, reason };
}

export function accept(deliveryId: string | undefined, timestamp: number | undefined): WebhookAccepted {
  const result: WebhookAccepted = { ok: true };
  if (deliveryId !== undefined && deliveryId.length > 0) result.delivery_id = deliveryId;
  if (timestamp !== undefined) result.timestamp = timestamp;
  return result;
}
