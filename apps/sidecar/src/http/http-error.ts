// The refusal bodies are the contract's (@eleven-integrations/sidecar-protocol).
export { httpErrorBody, type HttpErrorBody, type HttpErrorCode, type BodyIssue } from "@eleven-integrations/sidecar-protocol";

/** The message of every `invalid_body` answer; its `issues` say what was wrong. */
export const INVALID_BODY_MESSAGE = "the request body does not match this route's schema";
