import type { EnvelopeError, ErrorCode } from "./envelope.js";

/** What the messages and next actions may say about the integration. */
export interface FailureContext {
  /** The manifest's display name, such as "GitHub". */
  readonly service: string;
  /** The host requests go to, such as "api.github.com". */
  readonly host: string;
}

const GENERIC: FailureContext = { service: "the service", host: "the service" };

/** The next action a person can follow for each code; written once so every path says the same. */
export function nextAction(code: ErrorCode, context: FailureContext = GENERIC, retryAfterSeconds?: number): string {
  switch (code) {
    case "unknown_integration":
      return "Pick an integration listed in the registry catalog; this one is not installed here.";
    case "unknown_op":
      return `Pick one of the operations ${context.service} lists in the registry catalog.`;
    case "invalid_args":
      return "Correct the named arguments and run the operation again.";
    case "unauthorized":
      return `Reconnect ${context.service}: the token is missing, expired or was revoked.`;
    case "forbidden":
      return `Reconnect ${context.service} with a token that grants the scope this operation needs.`;
    case "not_found":
      return "Check the names and ids in the arguments; the item may not exist, or the token may not be allowed to see it.";
    case "rate_limited":
      return retryAfterSeconds === undefined
        ? `Wait a minute before running this again; ${context.service} is limiting requests.`
        : `Wait ${retryAfterSeconds} seconds before running this again; ${context.service} is limiting requests.`;
    case "upstream_error":
      return `Try again later; if it keeps failing, check the arguments and ${context.service}'s status page.`;
    case "redirect_refused":
      return `Report this to the registry maintainers: ${context.service} answered with a redirect, which is never followed.`;
    case "timeout":
      return `Try again later; ${context.service} did not answer in time.`;
    case "network_error":
      return `Try again later; ${context.host} could not be reached.`;
    case "outcome_unknown":
      return `check the provider before trying again: ${context.service} got the write but its answer never came, so it may have happened.`;
    case "bad_response":
      return `Report this to the registry maintainers if it keeps happening: ${context.service} answered with something this operation cannot read.`;
    case "response_too_large":
    case "result_too_large":
      return "Ask for less: narrow the arguments (a more specific query, fewer items per page).";
  }
}

/** An envelope error with its next action filled in. */
export function failure(
  code: ErrorCode,
  message: string,
  context?: FailureContext,
  extra: { http_status?: number; retry_after_s?: number } = {},
): EnvelopeError {
  return { code, message, ...extra, next_action: nextAction(code, context, extra.retry_after_s) };
}
