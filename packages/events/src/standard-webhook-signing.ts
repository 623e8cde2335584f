import { randomBytes } from "node:crypto";
import { hmac } from "./constant-time.js";
import { standardWebhookKey } from "./dialects/standard-webhooks.js";
import type { WebhookHeaders } from "./header-bag.js";
import type { VerifyWebhookResult } from "./verify-result.js";
import { verifyWebhook } from "./verify-webhook.js";

/** Why `signStandardWebhook` refused to sign: nothing secret is in the message. */
export class StandardWebhookError extends Error {
  readonly code: "bad_secret" | "bad_id" | "bad_timestamp";
  constructor(code: StandardWebhookError["code"], message: string) {
    super(message);
    this.code = code;
    this.name = "StandardWebhookError";
  }
}

export interface SignStandardWebhookInput {
  /** `whsec_<base64>`. */
  secret: string;
  /** The message id (`webhook-id`), the same on every retry of one delivery; no `.` in it. */
  id: string;
  /** Unix seconds of this attempt. */
  timestamp: number;
  body: Uint8Array | string;
}

export interface StandardWebhookHeaders {
  "webhook-id": string;
  "webhook-timestamp": string;
  "webhook-signature": string;
}

/** A new random `whsec_` secret of 32 bytes (the spec asks for 24 to 64). */
export function generateStandardWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString("base64")}`;
}

/** The three Standard Webhooks headers for one delivery we send (`v1,<base64 HMAC-SHA256>`). */
export function signStandardWebhook(input: SignStandardWebhookInput): StandardWebhookHeaders {
  const key = standardWebhookKey(input.secret);
  if (key === null) throw new StandardWebhookError("bad_secret", "a Standard Webhooks secret is whsec_ followed by base64");
  if (input.id.length === 0 || input.id.includes(".")) throw new StandardWebhookError("bad_id", "the webhook id is non-empty and has no '.'");
  if (!Number.isSafeInteger(input.timestamp) || input.timestamp < 0) throw new StandardWebhookError("bad_timestamp", "the timestamp is Unix seconds");
  const signature = hmac("sha256", key, `${input.id}.${input.timestamp}.`, input.body).toString("base64");
  return { "webhook-id": input.id, "webhook-timestamp": String(input.timestamp), "webhook-signature": `v1,${signature}` };
}

export interface VerifyStandardWebhookInput {
  secret: string | readonly string[] | undefined | null;
  headers: WebhookHeaders;
  body: Uint8Array;
  now?: number;
}

/** `verifyWebhook` with the `standard-webhooks` dialect, for a receiver of what we send. */
export function verifyStandardWebhook(input: VerifyStandardWebhookInput): VerifyWebhookResult {
  return verifyWebhook({ dialect: "standard-webhooks", ...input });
}
