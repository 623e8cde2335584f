import type { CompiledOperation } from "@eleven-integrations/loader";
import type { ArgValue } from "@eleven-integrations/schema";
import type { ArgProblem } from "./arg-problem.js";
import { checkArgValue } from "./check-arg-value.js";

/** A run's checked args: strings, a list arg's array of strings, a file arg's file. */
export type ArgValues = Readonly<Record<string, ArgValue>>;

export type CheckArgsResult = { readonly ok: true; readonly values: ArgValues } | { readonly ok: false; readonly problems: readonly ArgProblem[] };

/**
 * Checks the caller's args against the op's declarations: an object of own values (a string;
 * a list arg's array of strings; a file arg's file), no unknown names, every required one
 * given, each within its bounds. The values come back on a null-prototype object, so a
 * `__proto__` arg is only ever data.
 */
export function checkArgs(operation: CompiledOperation, args: unknown): CheckArgsResult {
  if (args !== undefined && args !== null && (typeof args !== "object" || Array.isArray(args))) {
    return {
      ok: false,
      problems: [{ arg: "", message: "args must be an object whose values are strings (a list arg's an array of strings, a file arg's a file)" }],
    };
  }
  const given = (args ?? {}) as Readonly<Record<string, unknown>>;
  const values = Object.create(null) as Record<string, ArgValue>;
  const problems: ArgProblem[] = [];
  for (const name of Object.keys(given)) {
    const arg = operation.args.get(name);
    if (arg === undefined) {
      problems.push({ arg: name, message: `is not an argument of ${operation.integration} ${operation.id}` });
      continue;
    }
    const value = given[name];
    const problem = checkArgValue(arg, value);
    if (problem !== undefined) problems.push({ arg: name, message: problem });
    else values[name] = value as ArgValue;
  }
  for (const arg of operation.args.values()) {
    if (arg.required && !Object.hasOwn(given, arg.name)) problems.push({ arg: arg.name, message: "is required" });
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, values };
}
