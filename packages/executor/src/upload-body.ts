import type { CompiledOperation } from "@eleven-integrations/loader";
import { inlineFileArgSchema, storedFileArgSchema, type InlineFileArg } from "@eleven-integrations/schema";
import type { ArgProblem } from "./arg-problem.js";
import type { ArgValues } from "./check-args.js";
import { bytesBody, multipartBody, type FileBody, type FileBytes, type FormField } from "./file-body.js";

/** `send`: the body is built to go out; `validate`: checked only, a stored file's bytes not needed. */
export type BodyPurpose = "send" | "validate";

/** What validate builds for a stored file: the sidecar reads its bytes only when it sends. */
const UNREAD_STORED_FILE: FileBody = Object.freeze({ body: Buffer.alloc(0), contentType: "application/octet-stream" });

export type UploadBodyResult = { readonly ok: true; readonly body: FileBody } | { readonly ok: false; readonly problems: readonly ArgProblem[] };

/**
 * The body of an upload op (`encoding: "bytes"` or `"multipart"`): the file arg's decoded bytes,
 * alone or with the rendered parts. A `{ sha256 }` value reaching here was not resolved by the
 * sidecar: refused, nothing sent.
 */
export function uploadBody(operation: CompiledOperation, args: ArgValues, purpose: BodyPurpose = "send"): UploadBodyResult {
  const fileArg = [...operation.args.values()].find((arg) => arg.type === "file")?.name;
  if (fileArg === undefined) return { ok: false, problems: [{ arg: "", message: "the op declares no file arg" }] };
  const value = inlineFileArgSchema.safeParse(args[fileArg]);
  if (!value.success && purpose === "validate" && storedFileArgSchema.safeParse(args[fileArg]).success) return { ok: true, body: UNREAD_STORED_FILE };
  if (!value.success) {
    return {
      ok: false,
      problems: [
        {
          arg: fileArg,
          message: "must be a file the executor can send: { name, content_type, base64 } (a { sha256 } file is resolved by the sidecar from its file folder)",
        },
      ],
    };
  }
  const file = fileBytes(value.data);
  if (operation.encoding === "bytes") {
    const body = bytesBody(file);
    return { ok: true, body: operation.contentType === undefined ? body : { ...body, contentType: operation.contentType } };
  }
  const multipart = operation.multipart;
  if (multipart === undefined) return { ok: false, problems: [{ arg: "", message: "the op declares no multipart parts" }] };
  const fields: FormField[] = [];
  let fileField: string | undefined;
  let metadata: unknown;
  for (const part of multipart.parts) {
    if (part.file !== undefined) fileField = part.name;
    else if (part.render !== undefined) {
      const rendered = part.render(args);
      if (multipart.kind === "related") metadata = rendered;
      else fields.push([part.name ?? "", typeof rendered === "string" ? rendered : JSON.stringify(rendered)]);
    }
  }
  return { ok: true, body: multipartBody(multipart.kind, file, { fields, ...(fileField === undefined ? {} : { fileField }), metadata }) };
}

function fileBytes(value: InlineFileArg): FileBytes {
  return { name: value.name, content_type: value.content_type, bytes: Buffer.from(value.base64, "base64") };
}
