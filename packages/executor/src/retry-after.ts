/** The longest wait a `Retry-After` (or rate-limit reset) is believed for: one day. */
const MAX_SECONDS = 86_400;

/**
 * Seconds to wait from a `Retry-After` value (delta-seconds or an HTTP-date), rounded up,
 * or undefined when there is none or it cannot be read.
 */
export function parseRetryAfter(value: string | string[] | undefined, nowMs: number): number | undefined {
  const text = (Array.isArray(value) ? value[0] : value)?.trim();
  if (text === undefined || text === "") return undefined;
  if (/^\d+$/.test(text)) return Math.min(Number(text), MAX_SECONDS);
  // Every HTTP-date form (IMF-fixdate, RFC 850, asctime) starts with the day's name.
  const date = /^[A-Za-z]{3}/.test(text) ? Date.parse(text) : Number.NaN;
  if (Number.isNaN(date)) return undefined;
  return Math.min(Math.max(0, Math.ceil((date - nowMs) / 1000)), MAX_SECONDS);
}

/** Seconds until a Unix-seconds reset time such as GitHub's `x-ratelimit-reset`. */
export function parseResetAt(value: string | string[] | undefined, nowMs: number): number | undefined {
  const text = (Array.isArray(value) ? value[0] : value)?.trim();
  if (text === undefined || !/^\d{1,12}$/.test(text)) return undefined;
  return Math.min(Math.max(0, Math.ceil(Number(text) - nowMs / 1000)), MAX_SECONDS);
}
