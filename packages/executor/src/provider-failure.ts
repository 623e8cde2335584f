import type { IncomingHttpHeaders } from "node:http";
import type { CompiledProviderErrors } from "@eleven-integrations/loader";
import { cleanProviderText } from "./clean-provider-text.js";
import type { EnvelopeError, ErrorCode, ProviderDetails } from "./envelope.js";
import { failure, type FailureContext } from "./failure.js";
import { DEFAULT_RETRY_AFTER_S } from "./map-status.js";
import { parseResetAt, parseRetryAfter } from "./retry-after.js";

const PHRASES: Partial<Record<ErrorCode, string>> = {
  unauthorized: "the token was refused",
  forbidden: "the token may not do this",
  not_found: "not found",
  rate_limited: "too many requests",
  upstream_error: "the request failed",
};

/** The provider's own code and message from a parsed answer, cleaned and bounded; undefined when neither is there. */
export function providerDetails(errors: CompiledProviderErrors | undefined, body: unknown): ProviderDetails | undefined {
  if (errors === undefined || !errors.readsDetails || body === undefined) return undefined;
  const found = errors.details(body);
  const details: { code?: string; message?: string } = {};
  const code = cleanProviderText(found.code);
  const message = cleanProviderText(found.message);
  if (code !== undefined) details.code = code;
  if (message !== undefined) details.message = message;
  return code === undefined && message === undefined ? undefined : details;
}

/**
 * The error for a 2xx answer whose body says it failed (Slack's `ok: false`, GraphQL
 * `errors`): the provider's code through the manifest's map, else `upstream_error`,
 * with `http_status` the status it came with.
 */
export function failureIn2xx(
  errors: CompiledProviderErrors,
  status: number,
  headers: IncomingHttpHeaders,
  body: unknown,
  context: FailureContext,
  nowMs: number,
): EnvelopeError {
  const details = providerDetails(errors, body);
  const rawCode = errors.details(body).code;
  const code: ErrorCode = (rawCode === undefined ? undefined : errors.mapCode(rawCode)) ?? "upstream_error";
  const message = `${context.service} answered ${status} but reported a failure: ${PHRASES[code] ?? "the request failed"}`;
  const extra: { http_status: number; retry_after_s?: number } = { http_status: status };
  if (code === "rate_limited") extra.retry_after_s = retryAfterSeconds(headers, nowMs);
  return withDetails(failure(code, message, context, extra), details);
}

/**
 * A 4xx/5xx error with the provider's words attached. A provider code the manifest maps
 * is more specific than the status, so it decides the code (Linear's 400 carrying
 * `RATELIMITED`, Google Calendar's 403 carrying `rateLimitExceeded`), except that a 429
 * stays `rate_limited`.
 */
export function withProviderDetails(
  error: EnvelopeError,
  errors: CompiledProviderErrors | undefined,
  headers: IncomingHttpHeaders,
  body: unknown,
  context: FailureContext,
  nowMs: number,
): EnvelopeError {
  if (errors === undefined || body === undefined) return error;
  const details = providerDetails(errors, body);
  const rawCode = errors.details(body).code;
  const mapped = rawCode === undefined ? undefined : errors.mapCode(rawCode);
  if (mapped !== undefined && mapped !== error.code && error.code !== "rate_limited") {
    const status = error.http_status ?? 0;
    const extra: { http_status: number; retry_after_s?: number } = { http_status: status };
    if (mapped === "rate_limited") extra.retry_after_s = retryAfterSeconds(headers, nowMs);
    return withDetails(failure(mapped, `${context.service} answered ${status}: ${PHRASES[mapped] ?? "the request failed"}`, context, extra), details);
  }
  return withDetails(error, details);
}

function withDetails(error: EnvelopeError, details: ProviderDetails | undefined): EnvelopeError {
  return details === undefined ? error : { ...error, provider: details };
}

function retryAfterSeconds(headers: IncomingHttpHeaders, nowMs: number): number {
  return parseRetryAfter(headers["retry-after"], nowMs) ?? parseResetAt(headers["x-ratelimit-reset"], nowMs) ?? DEFAULT_RETRY_AFTER_S;
}
