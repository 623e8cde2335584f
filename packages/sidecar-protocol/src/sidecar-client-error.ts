import type { BodyIssue, HttpErrorCode } from "./http-error-schema.js";
// The subpath, not the package root: the protocol's light `/home` entry imports this class and must load no zod.
import { markedError } from "@eleven-integrations/schema/marked-error";

/**
 * Why a call never reached its route's answer: the sidecar refused it before the
 * route (its `HttpErrorCode`: `unauthorized`, `forbidden_host`, `invalid_body`,
 * `body_too_large`...), or the client could not get an answer.
 */
export type SidecarClientErrorCode =
  | HttpErrorCode
  /** A target that is neither an absolute socket path nor a loopback http origin. */
  | "invalid_target"
  /** No sidecar there: nothing listens on the socket or port (ECONNREFUSED, ENOENT...). */
  | "unreachable"
  /** No whole answer within `timeoutMs`. */
  | "timeout"
  /** The answer is larger than `maxAnswerBytes`. */
  | "answer_too_large"
  /** The answer is not JSON, or a status the contract does not have. */
  | "bad_answer"
  | "caller_token_unreadable";

/** A call that got no route answer. The message is the client's own words: it never quotes a token, a grant or an answer. */
export class SidecarClientError extends markedError("SidecarClientError") {
  readonly code: SidecarClientErrorCode;
  /** The HTTP status when the sidecar answered. */
  readonly status: number | undefined;
  /** With `invalid_body`: each path of the body and what is wrong with it. */
  readonly issues: BodyIssue[] | undefined;

  constructor(code: SidecarClientErrorCode, message: string, details: { status?: number; issues?: BodyIssue[]; cause?: unknown } = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.code = code;
    this.status = details.status;
    this.issues = details.issues;
  }
}
