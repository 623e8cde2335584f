const MARKER = Symbol.for("eleven-integrations.error.SpecError");

export type SpecErrorCode = "unreadable_spec" | "not_openapi" | "unknown_operation" | "invalid_schema" | "invalid_manifest" | "invalid_allow_list";

/** A spec, schema, manifest or allow-list the maintainer's tools cannot work with: exit 2 with what was wrong. */
export class SpecError extends Error {
  readonly code: SpecErrorCode;
  private readonly [MARKER] = true;
  constructor(code: SpecErrorCode, message: string) {
    super(message);
    this.name = "SpecError";
    this.code = code;
  }
  static isInstance(value: unknown): value is SpecError {
    return typeof value === "object" && value !== null && MARKER in value;
  }
}
