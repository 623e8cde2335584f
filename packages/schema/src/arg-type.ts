/** The type an arg's string value is checked as, and a whole-leaf body placeholder renders as. */
export const ARG_TYPES = ["string", "integer", "number", "boolean"] as const;
export type ArgType = (typeof ARG_TYPES)[number];

const INTEGER = /^-?[0-9]+$/;
/** RFC 8259's number grammar. */
const NUMBER = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?$/;

/** The problem with `value` as an arg of `type`, or undefined. */
export function argTypeProblem(value: string, type: ArgType): string | undefined {
  switch (type) {
    case "string":
      return undefined;
    case "integer":
      return INTEGER.test(value) && Number.isSafeInteger(Number(value))
        ? undefined
        : "must be an integer (digits, an optional leading -, within ±9007199254740991)";
    case "number":
      return NUMBER.test(value) && Number.isFinite(Number(value)) ? undefined : "must be a JSON number (such as 42, -1.5 or 2e3)";
    case "boolean":
      return value === "true" || value === "false" ? undefined : 'must be "true" or "false"';
  }
}

/** The JSON value of a checked arg value of `type`: a string stays a string. */
export function typedValue(value: string, type: ArgType): string | number | boolean {
  switch (type) {
    case "string":
      return value;
    case "integer":
    case "number":
      return Number(value);
    case "boolean":
      return value === "true";
  }
}
