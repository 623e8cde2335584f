import { markedError } from "@eleven-integrations/schema/marked-error";

export type SpecErrorCode = "unreadable_spec" | "not_openapi" | "unknown_operation" | "invalid_schema" | "invalid_manifest" | "invalid_allow_list";

/** A spec, schema, manifest or allow-list the maintainer's tools cannot work with: exit 2 with what was wrong. */
export class SpecError extends markedError("SpecError") {
  readonly code: SpecErrorCode;
  constructor(code: SpecErrorCode, message: string) {
    super(message);
    this.code = code;
  }
}
