import { readHeader, type WebhookHeaders } from "../header-bag.js";
import { refuse, type VerifyWebhookResult, type WebhookRefused } from "../verify-result.js";

/** What one dialect's check receives, after the size and secret checks every dialect shares. */
export interface DialectRequest {
  /** The configured secrets, never empty (several: rotation, or Box's primary and secondary). */
  keys: readonly string[];
  headers: WebhookHeaders;
  body: Uint8Array;
  url: string | undefined;
  now: number;
}

export interface Dialect {
  /** The header that carries the signature (what a reader looks for first). */
  header: string;
  /** The provider's page this dialect copies. */
  documentation: string;
  verify(request: DialectRequest): VerifyWebhookResult;
}

/** A required header's value, or the refusal: absent is `missing`, given twice is `malformed`. */
export function requiredHeader(headers: WebhookHeaders, name: string, missing: "missing_signature" | "malformed"): string | WebhookRefused {
  const header = readHeader(headers, name);
  if (header.kind === "absent") return refuse(missing);
  if (header.kind === "duplicate") return refuse("malformed");
  return header.value;
}

/** An optional header's single value (a duplicate or absent one is no value). */
export function optionalHeader(headers: WebhookHeaders, name: string): string | undefined {
  const header = readHeader(headers, name);
  return header.kind === "one" ? header.value : undefined;
}

const UNIX_SECONDS = /^[0-9]{1,12}$/;

/** Decimal Unix seconds, or null. */
export function unixSeconds(text: string): number | null {
  return UNIX_SECONDS.test(text) ? Number(text) : null;
}

/** Within `tolerance` seconds of now, in the past or in the future. */
export function isFresh(timestamp: number, now: number, tolerance: number): boolean {
  return Math.abs(now - timestamp) <= tolerance;
}

export function isRefusal(value: unknown): value is WebhookRefused {
  return typeof value === "object" && value !== null && (value as { ok?: unknown }).ok === false;
}

/** The body as a JSON object, or null (an array, a scalar or no JSON at all). */
export function jsonObject(body: Uint8Array): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(body));
    return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
