/** The closed list of ways a run can fail. */
export type ErrorCode =
  | "unknown_integration"
  | "unknown_op"
  | "invalid_args"
  | "unauthorized"
  | "forbidden"
  | "not_found"
  | "rate_limited"
  | "upstream_error"
  | "redirect_refused"
  | "timeout"
  | "network_error"
  /** A write whose request was sent but whose answer never came: it may have happened. */
  | "outcome_unknown"
  | "bad_response"
  | "response_too_large"
  | "result_too_large";

export interface OkEnvelope {
  readonly status: "ok";
  readonly integration: string;
  readonly op: string;
  readonly http_status: number;
  /** The picked result, the parsed JSON body, or the body as text; `null` for an empty body. */
  readonly data: unknown;
  /**
   * Present exactly when the provider says there is more: an opaque token (at most 1 KiB)
   * that `run({ ..., page })` takes, with the same args, for the next page.
   */
  readonly next_page?: string;
}

/** The provider's own error code and message, as its answer gave them, cleaned and at most 300 characters each. */
export interface ProviderDetails {
  readonly code?: string;
  readonly message?: string;
}

export interface EnvelopeError {
  readonly code: ErrorCode;
  /** What went wrong, for a person; never holds the credential or a response body. */
  readonly message: string;
  readonly http_status?: number;
  readonly retry_after_s?: number;
  /** The provider's own words, from the places the manifest's `errors` declares. */
  readonly provider?: ProviderDetails;
  /** What a person can do about it. */
  readonly next_action: string;
}

export interface ErrorEnvelope {
  readonly status: "error";
  readonly integration: string;
  readonly op: string;
  readonly error: EnvelopeError;
}

export type Envelope = OkEnvelope | ErrorEnvelope;

/** Names a run by what the caller asked for, whatever type it arrived as. */
export interface RunName {
  readonly integration: string;
  readonly op: string;
}

export function okEnvelope(name: RunName, httpStatus: number, data: unknown, nextPage?: string): OkEnvelope {
  return nextPage === undefined
    ? { status: "ok", integration: name.integration, op: name.op, http_status: httpStatus, data }
    : { status: "ok", integration: name.integration, op: name.op, http_status: httpStatus, data, next_page: nextPage };
}

export function errorEnvelope(name: RunName, error: EnvelopeError): ErrorEnvelope {
  return { status: "error", integration: name.integration, op: name.op, error };
}
