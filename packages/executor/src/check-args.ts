import type { CompiledOperation } from "@eleven-integrations/loader";
import type { ArgProblem } from "./arg-problem.js";
import { checkArgValue } from "./check-arg-value.js";

export type CheckArgsResult =
  | { readonly ok: true; readonly values: Readonly<Record<string, string>> }
  | { readonly ok: false; readonly problems: readonly ArgProblem[] };

/**
 * Checks the caller's args against the op's declarations: an object of own string
 * values, no unknown names, every required one given, each within its bounds. The
 * values come back on a null-prototype object, so a `__proto__` arg is only ever data.
 */
export function checkArgs(operation: CompiledOperation, args: unknown): CheckArgsResult {
  if (args !== undefined && args !== null && (typeof args !== "object" || Array.isArray(args))) {
    return { ok: false, problems: [{ arg: "", message: "args must be an object whose values are strings" }] };
  }
  const given = (args ?? {}) as Readonly<Record<string, unknown>>;
  const values = Object.create(null) as Record<string, string>;
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
    else values[name] = value as string;
  }
  for (const arg of operation.args.values()) {
    if (arg.required && !Object.hasOwn(given, arg.name)) problems.push({ arg: arg.name, message: "is required" });
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, values };
}
