import type { CompiledOperation } from "@eleven-integrations/loader";
import type { ArgProblem } from "./arg-problem.js";
import { buildMessage } from "./build-message.js";
import type { ArgValues } from "./check-args.js";
import { encodeForm } from "./encode-form.js";
import { uploadBody, type BodyPurpose } from "./upload-body.js";

export interface RenderedBody {
  readonly body: string | Buffer;
  readonly contentType: string;
}

export type RenderBodyResult =
  | { readonly ok: true; readonly body: RenderedBody | undefined }
  | { readonly ok: false; readonly problems: readonly ArgProblem[] };

/**
 * The request body from the op's template and the checked args, or undefined for an op without
 * one. An `rfc2822` op's message is built from its message args and fills the `"{message}"` leaf
 * as base64url; a value that cannot go in a mail header is refused, naming its arg.
 */
export function renderBody(operation: CompiledOperation, args: ArgValues, purpose: BodyPurpose = "send"): RenderBodyResult {
  if (operation.encoding === "bytes" || operation.encoding === "multipart") return uploadBody(operation, args, purpose);
  if (operation.renderBody === undefined) return { ok: true, body: undefined };
  if (operation.encoding === "rfc2822") {
    const message = buildMessage(args);
    if (!message.ok) return message;
    return { ok: true, body: { body: JSON.stringify(operation.renderBody({ ...args, message: message.base64url })), contentType: "application/json" } };
  }
  const tree = operation.renderBody(args);
  return {
    ok: true,
    body:
      operation.encoding === "form"
        ? { body: encodeForm(tree), contentType: "application/x-www-form-urlencoded" }
        : { body: JSON.stringify(tree), contentType: "application/json" },
  };
}
