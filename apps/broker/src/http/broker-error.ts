import { markedError } from "@eleven-integrations/schema";

/** Every error code the broker answers with, and the HTTP status each one carries. */
export const BROKER_ERROR_STATUS = {
  bad_request: 400,
  invalid_body: 400,
  invalid_query: 400,
  invalid_client_key: 400,
  return_to_not_allowed: 400,
  oauth_not_supported: 400,
  missing_state: 400,
  invalid_state: 400,
  state_expired: 400,
  issuer_mismatch: 400,
  invalid_callback: 400,
  browser_mismatch: 400,
  token_exchange_failed: 400,
  refresh_failed: 400,
  revocation_refused: 400,
  invalid_signature: 400,
  refresh_not_bound: 400,
  revocation_not_proven: 400,
  invalid_registration: 400,
  webhook_unverified: 401,
  events_unauthorized: 401,
  account_not_connected: 403,
  not_found: 404,
  unknown_integration: 404,
  method_not_allowed: 405,
  oauth_unavailable: 409,
  revocation_unavailable: 409,
  rate_limited: 429,
  payload_too_large: 413,
  unsupported_media_type: 415,
  internal_error: 500,
  provider_error: 502,
  revocation_failed: 502,
  service_unavailable: 503,
} as const;

export type BrokerErrorCode = keyof typeof BROKER_ERROR_STATUS;

/**
 * An expected refusal, answered as `{ error: { code, message } }` (or the same as
 * a page for a browser). The message is shown to the caller: it names what was
 * wrong, never a token, code, state, key or secret.
 */
export class BrokerError extends markedError("BrokerError") {
  readonly code: BrokerErrorCode;
  readonly statusCode: number;
  /** Seconds before trying again, sent as `Retry-After` (429). */
  readonly retryAfterSeconds: number | undefined;
  /** Extra members of the error object (`revoke_help`): public values only. */
  readonly details: Readonly<Record<string, string>> | undefined;

  constructor(code: BrokerErrorCode, message: string, options: { retryAfterSeconds?: number; details?: Record<string, string> } = {}) {
    super(message);
    this.code = code;
    this.statusCode = BROKER_ERROR_STATUS[code];
    this.retryAfterSeconds = options.retryAfterSeconds;
    this.details = options.details;
  }
}
