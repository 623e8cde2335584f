import { DIALECTS, isWebhookDialect, type WebhookDialect } from "./dialects/index.js";
import type { WebhookHeaders } from "./header-bag.js";
import { MAX_WEBHOOK_BODY_BYTES } from "./limits.js";
import { refuse, type VerifyWebhookResult } from "./verify-result.js";

export interface VerifyWebhookInput {
  dialect: WebhookDialect;
  /**
   * The configured secret; several for a rotation (any one passing is enough), or Box's
   * `[primary, secondary]`. Absent, empty or only empty strings: `no_secret`, whatever the request.
   */
  secret: string | readonly string[] | undefined | null;
  headers: WebhookHeaders;
  /** The raw body bytes as received: never a re-serialised JSON value. */
  body: Uint8Array;
  /** The full URL the provider called (Twilio signs it). */
  url?: string;
  /** Unix seconds; defaults to the clock. */
  now?: number;
}

function configuredKeys(secret: VerifyWebhookInput["secret"]): string[] {
  if (secret === undefined || secret === null) return [];
  const list = typeof secret === "string" ? [secret] : [...secret];
  return list.filter((key): key is string => typeof key === "string" && key.length > 0);
}

/**
 * Verifies one provider delivery as its dialect documents, failing closed: over 1 MiB is
 * `too_large` before anything else, no secret is `no_secret` before the request is read, then the
 * dialect's own checks (`missing_signature`, `malformed`, `bad_signature`, `stale`). Synchronous
 * and pure; signatures are compared in constant time. `replayed` is the caller's to decide with
 * the answered `delivery_id`.
 */
export function verifyWebhook(input: VerifyWebhookInput): VerifyWebhookResult {
  const { body } = input;
  if (!(body instanceof Uint8Array)) return refuse("malformed");
  if (body.byteLength > MAX_WEBHOOK_BODY_BYTES) return refuse("too_large");
  const keys = configuredKeys(input.secret);
  if (keys.length === 0) return refuse("no_secret");
  if (!isWebhookDialect(input.dialect)) return refuse("malformed");
  const now = input.now ?? Math.floor(Date.now() / 1000);
  if (!Number.isFinite(now)) return refuse("malformed");
  if (typeof input.headers !== "object" || input.headers === null) return refuse("missing_signature");
  return DIALECTS[input.dialect].verify({ keys, headers: input.headers, body, url: input.url, now });
}
