/** Codes of the answers that are not envelopes: the call itself was refused. */
export type HttpErrorCode =
  | "forbidden_host"
  | "forbidden_origin"
  | "unauthorized"
  | "unsupported_media_type"
  | "body_too_large"
  | "invalid_json"
  | "invalid_body"
  | "not_found"
  | "method_not_allowed"
  | "shutting_down"
  | "audit_unavailable"
  | "bad_request"
  | "internal_error";

/** One problem with a request body: a dot path (`args.sort`, `""` for the body itself) and what is wrong. */
export interface BodyIssue {
  path: string;
  message: string;
}

/** The body of every non-envelope answer. */
export interface HttpErrorBody {
  error: { code: HttpErrorCode; message: string; issues?: BodyIssue[] };
}

export function httpErrorBody(code: HttpErrorCode, message: string, issues?: BodyIssue[]): HttpErrorBody {
  return issues === undefined ? { error: { code, message } } : { error: { code, message, issues } };
}

/** The message of every `invalid_body` answer; its `issues` say what was wrong. */
export const INVALID_BODY_MESSAGE = "the request body does not match this route's schema";
