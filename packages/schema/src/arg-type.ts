/**
 * The type an arg's value is checked as. Scalar types take a string (and a body leaf that is
 * exactly `"{name}"` renders as that JSON type); `string[]` and `integer[]` take a JSON array of
 * strings (at most `max_items`, each item checked like a `string` / `integer` arg); `path` takes
 * a string that may span path segments (`docs/readme.md`); `file` takes a file value (see
 * `fileArgValueSchema`).
 */
export const ARG_TYPES = ["string", "integer", "number", "boolean", "string[]", "integer[]", "path", "file"] as const;
export type ArgType = (typeof ARG_TYPES)[number];
/** The types whose value is one string. */
export type ScalarArgType = "string" | "integer" | "number" | "boolean" | "path";
export type ListArgType = "string[]" | "integer[]";

/** The most items a list arg may declare (`max_items`). */
export const MAX_LIST_ITEMS = 100;

export function isListArgType(type: ArgType | undefined): type is ListArgType {
  return type === "string[]" || type === "integer[]";
}

/** The type each item of a list arg is checked as; a scalar type is its own item type. */
export function itemArgType(type: ScalarArgType | ListArgType): ScalarArgType {
  if (type === "string[]") return "string";
  if (type === "integer[]") return "integer";
  return type;
}

const INTEGER = /^-?[0-9]+$/;
/** RFC 8259's number grammar. */
const NUMBER = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?$/;

/** The problem with `value` as an arg (or, for a list type, one item) of `type`, or undefined. */
export function argTypeProblem(value: string, type: ArgType): string | undefined {
  switch (type) {
    case "string":
    case "string[]":
    case "path":
      return undefined;
    case "integer":
    case "integer[]":
      return INTEGER.test(value) && Number.isSafeInteger(Number(value))
        ? undefined
        : "must be an integer (digits, an optional leading -, within ±9007199254740991)";
    case "number":
      return NUMBER.test(value) && Number.isFinite(Number(value)) ? undefined : "must be a JSON number (such as 42, -1.5 or 2e3)";
    case "boolean":
      return value === "true" || value === "false" ? undefined : 'must be "true" or "false"';
    case "file":
      return "must be a file ({ name, content_type, base64 } or { sha256 })";
  }
}

/** The JSON value of a checked scalar arg value of `type` (or one item of a list): a string stays a string. */
export function typedValue(value: string, type: ArgType): string | number | boolean {
  switch (type) {
    case "integer":
    case "integer[]":
    case "number":
      return Number(value);
    case "boolean":
      return value === "true";
    default:
      return value;
  }
}
