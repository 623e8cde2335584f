import { AddressRefusedError } from "./address-refused-error.js";
import type { EnvelopeError } from "./envelope.js";
import { failure, type FailureContext } from "./failure.js";

const TIMEOUT_CODES = new Set(["UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT", "UND_ERR_CONNECT_TIMEOUT", "ETIMEDOUT"]);
/** Worth another attempt for a read: the connection was refused or dropped before an answer. */
const RETRYABLE_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "EPIPE", "UND_ERR_SOCKET"]);
const DNS_CODES = new Set(["ENOTFOUND", "EAI_AGAIN", "EAI_FAIL", "EAI_NONAME", "ENODATA"]);

export interface TransportFailure {
  readonly error: EnvelopeError;
  readonly retryable: boolean;
}

/** Failures before the request could leave: nothing was sent, so even a write stays `network_error`/`timeout`. */
const BEFORE_SENDING_CODES = new Set(["ECONNREFUSED", "UND_ERR_CONNECT_TIMEOUT", "EHOSTUNREACH", "ENETUNREACH", "EADDRNOTAVAIL"]);

/** Whether a failure happened before anything of the request could have been sent. */
function beforeSending(error: unknown, code: string | undefined): boolean {
  if (AddressRefusedError.isInstance(error)) return true;
  if (code === undefined) return false;
  return BEFORE_SENDING_CODES.has(code) || DNS_CODES.has(code) || code.startsWith("ERR_TLS_") || code.includes("CERT") || code.includes("SIGNATURE");
}

/**
 * A write that failed without an answer: a failure to connect (refused, DNS, an
 * address the pin refuses, TLS) sent nothing and maps like every request's; anything
 * later (a timeout, a reset or close once connected) may have left the request
 * with the provider, so it is `outcome_unknown` and never tried again.
 */
export function mapWriteTransportError(error: unknown, deadlineExpired: boolean, timeoutMs: number, context: FailureContext): TransportFailure {
  const mapped = mapTransportError(error, deadlineExpired, timeoutMs, context);
  if (beforeSending(error, errorCode(error))) return { error: mapped.error, retryable: false };
  const detail = mapped.error.code === "timeout" ? `did not answer within ${timeoutMs} ms` : "closed the connection before answering";
  return { error: failure("outcome_unknown", `the write was sent, but ${context.service} ${detail}; it may have happened`, context), retryable: false };
}

/**
 * The envelope error for a request that failed without an HTTP answer. Only the error's
 * code is read, never its message, so nothing the request carried can leak into it.
 */
export function mapTransportError(error: unknown, deadlineExpired: boolean, timeoutMs: number, context: FailureContext): TransportFailure {
  const code = errorCode(error);
  if (deadlineExpired || (code !== undefined && TIMEOUT_CODES.has(code))) {
    return { error: failure("timeout", `${context.service} did not answer within ${timeoutMs} ms`, context), retryable: false };
  }
  if (AddressRefusedError.isInstance(error)) {
    // The address is never named: it can be an internal address the host resolved to.
    return { error: failure("network_error", `refused to connect: ${context.host} resolved to an address that is not public`, context), retryable: false };
  }
  if (code !== undefined && DNS_CODES.has(code)) {
    return { error: failure("network_error", `${context.host} could not be resolved (${code})`, context), retryable: false };
  }
  if (code !== undefined && (code.startsWith("ERR_TLS_") || code.includes("CERT") || code.includes("SIGNATURE"))) {
    return { error: failure("network_error", `the TLS certificate of ${context.host} could not be verified (${code})`, context), retryable: false };
  }
  const suffix = code === undefined ? "" : ` (${code})`;
  return {
    error: failure("network_error", `the connection to ${context.host} failed${suffix}`, context),
    retryable: code !== undefined && RETRYABLE_CODES.has(code),
  };
}

function errorCode(error: unknown): string | undefined {
  const code = error !== null && typeof error === "object" ? (error as { code?: unknown }).code : undefined;
  return typeof code === "string" && /^[A-Z0-9_]{1,64}$/.test(code) ? code : undefined;
}
