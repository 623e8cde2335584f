import { DEFAULT_MAX_LENGTH, type Arg } from "@eleven-integrations/schema";
import type { ValueRules } from "./schema-shape.js";

/** A problem with one value or arg against the spec's rules for it. */
export interface ValueProblem {
  rule: "enum" | "max-length" | "pattern" | "type";
  message: string;
}

function specRegExp(pattern: string): RegExp | undefined {
  for (const flags of ["u", ""]) {
    try {
      return new RegExp(pattern, flags);
    } catch {
      // try without the u flag: OpenAPI patterns are ECMA 262 without flags
    }
  }
  return undefined;
}

const INTEGER = /^-?(?:0|[1-9][0-9]*)$/;
const NUMBER = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?$/;

function fitsType(value: string | number | boolean | null, types: readonly string[]): boolean {
  if (types.length === 0) return true;
  if (value === null) return false;
  if (typeof value === "boolean") return types.includes("boolean");
  if (typeof value === "number") return types.includes("number") || (types.includes("integer") && Number.isInteger(value));
  return types.some((type) => {
    if (type === "string" || type === "array") return true;
    if (type === "integer") return INTEGER.test(value);
    if (type === "number") return NUMBER.test(value);
    if (type === "boolean") return value === "true" || value === "false";
    return false;
  });
}

/** Checks a fixed value (a literal in the path, query or body) against the spec's rules. */
export function checkFixedValue(value: string | number | boolean | null, rules: ValueRules): ValueProblem[] {
  const problems: ValueProblem[] = [];
  const shown = JSON.stringify(value);
  if (rules.enum !== undefined && !rules.enum.includes(String(value))) {
    problems.push({ rule: "enum", message: `${shown} is not one of the spec's values ${list(rules.enum)}` });
  }
  if (!fitsType(value, rules.types)) problems.push({ rule: "type", message: `${shown} is not of the spec's type ${rules.types.join(" | ")}` });
  if (typeof value === "string") {
    if (rules.maxLength !== undefined && [...value].length > rules.maxLength) {
      problems.push({ rule: "max-length", message: `${shown} is longer than the spec's maxLength ${rules.maxLength}` });
    }
    const pattern = rules.pattern === undefined ? undefined : specRegExp(rules.pattern);
    if (pattern !== undefined && !pattern.test(value))
      problems.push({ rule: "pattern", message: `${shown} does not match the spec's pattern ${rules.pattern}` });
  }
  const numeric = typeof value === "number" ? value : typeof value === "string" && NUMBER.test(value) ? Number(value) : undefined;
  if (numeric !== undefined && rules.types.some((type) => type === "integer" || type === "number")) {
    if (rules.minimum !== undefined && numeric < rules.minimum)
      problems.push({ rule: "type", message: `${shown} is below the spec's minimum ${rules.minimum}` });
    if (rules.maximum !== undefined && numeric > rules.maximum)
      problems.push({ rule: "type", message: `${shown} is above the spec's maximum ${rules.maximum}` });
  }
  return problems;
}

/** Values that are not of a type, tried against an arg's pattern: one accepted means the arg lets a wrong type through. */
const NOT_OF_TYPE: Record<string, string[]> = {
  integer: ["x", "1.5", "1e3", " 1", "1 ", "+-1"],
  number: ["x", "1,5", " 1", "NaN"],
  boolean: ["yes", "1", "True"],
};

/**
 * Checks that an arg accepts nothing the spec refuses where the spec says so: its
 * enum within the spec's enum (or an enum where the spec has one), its max_length
 * within the spec's maxLength, a pattern where the spec has one, and no text where the
 * spec wants a number or a boolean.
 */
export function checkArg(name: string, arg: Arg, rules: ValueRules): ValueProblem[] {
  const problems: ValueProblem[] = [];
  if (arg.enum !== undefined) {
    for (const value of arg.enum) {
      for (const problem of checkFixedValue(value, rules)) problems.push({ rule: problem.rule, message: `arg ${name} allows ${problem.message}` });
    }
    return problems;
  }
  if (rules.enum !== undefined) {
    problems.push({ rule: "enum", message: `arg ${name} takes any value, but the spec allows only ${list(rules.enum)}` });
    return problems;
  }
  const maxLength = arg.max_length ?? DEFAULT_MAX_LENGTH;
  if (rules.maxLength !== undefined && maxLength > rules.maxLength) {
    problems.push({ rule: "max-length", message: `arg ${name} allows ${maxLength} characters, the spec's maxLength is ${rules.maxLength}` });
  }
  if (rules.pattern !== undefined && arg.pattern === undefined) {
    problems.push({ rule: "pattern", message: `arg ${name} has no pattern, but the spec requires ${rules.pattern}` });
  }
  const wanted = rules.types.filter((type) => type in NOT_OF_TYPE);
  // A typed arg is checked as its type at run time: an integer arg never carries other text.
  const typed = arg.type !== undefined && arg.type !== "string" && (wanted.includes(arg.type) || (arg.type === "integer" && wanted.includes("number")));
  if (!typed && wanted.length > 0 && wanted.length === rules.types.length) {
    const pattern = arg.pattern === undefined ? undefined : new RegExp(`^(?:${arg.pattern})$`, "u");
    const leaks = wanted.some((type) =>
      (NOT_OF_TYPE[type] ?? []).some((probe) => pattern === undefined || (pattern.test(probe) && !fitsType(probe, rules.types))),
    );
    if (leaks) {
      problems.push({
        rule: "type",
        message: `arg ${name} ${arg.pattern === undefined ? "takes any text" : "has a pattern that lets other text through"}, but the spec wants ${rules.types.join(" | ")}`,
      });
    }
  }
  return problems;
}

function list(values: readonly string[]): string {
  const shown = values
    .slice(0, 12)
    .map((value) => JSON.stringify(value))
    .join(", ");
  return `[${shown}${values.length > 12 ? `, … ${values.length - 12} more` : ""}]`;
}
