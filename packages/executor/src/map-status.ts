import type { IncomingHttpHeaders } from "node:http";
import type { EnvelopeError } from "./envelope.js";
import { failure, type FailureContext } from "./failure.js";
import { parseResetAt, parseRetryAfter } from "./retry-after.js";

/** Assumed when a 429 names no wait of its own. */
export const DEFAULT_RETRY_AFTER_S = 60;

/**
 * The error for a response that is not 2xx: 3xx is `redirect_refused` (redirects are never
 * followed), 401 `unauthorized`, 403 `forbidden` (or `rate_limited` when it says the rate
 * limit is spent, as GitHub does), 404 `not_found`, 429 `rate_limited`, any other
 * `upstream_error`. The response body is never quoted.
 */
export function mapStatus(status: number, headers: IncomingHttpHeaders, context: FailureContext, nowMs: number): EnvelopeError {
  const answered = `${context.service} answered ${status}`;
  if (status >= 300 && status < 400) {
    return failure("redirect_refused", `${answered} with a redirect, which is not followed`, context, { http_status: status });
  }
  switch (status) {
    case 401:
      return failure("unauthorized", `${answered}: the token was refused`, context, { http_status: status });
    case 403:
      if (headers["x-ratelimit-remaining"] === "0") return rateLimited(status, headers, context, nowMs);
      return failure("forbidden", `${answered}: the token may not do this`, context, { http_status: status });
    case 404:
      return failure("not_found", `${answered}: not found`, context, { http_status: status });
    case 429:
      return rateLimited(status, headers, context, nowMs);
  }
  if (status >= 400 && status < 600) {
    const side = status < 500 ? "refused the request" : "failed";
    return failure("upstream_error", `${answered}: it ${side}`, context, { http_status: status });
  }
  return failure("bad_response", `${answered}, which is not a final answer this operation understands`, context, { http_status: status });
}

function rateLimited(status: number, headers: IncomingHttpHeaders, context: FailureContext, nowMs: number): EnvelopeError {
  const retryAfter = parseRetryAfter(headers["retry-after"], nowMs) ?? parseResetAt(headers["x-ratelimit-reset"], nowMs) ?? DEFAULT_RETRY_AFTER_S;
  return failure("rate_limited", `${context.service} answered ${status}: too many requests`, context, {
    http_status: status,
    retry_after_s: retryAfter,
  });
}
