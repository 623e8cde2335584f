import type { Approval, ArgConstraint } from "./approval-payload.js";

// A decimal number as people write it: no blanks, no hex, no "Infinity", no empty text.
const DECIMAL = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?$/;

/** The arg read as a finite decimal number, or undefined when it is not one. */
export function numericArg(value: unknown): number | undefined {
  if (typeof value !== "string" || value.length > 64 || !DECIMAL.test(value)) return undefined;
  const number = Number(value);
  return Number.isFinite(number) ? number : undefined;
}

function satisfies(constraint: ArgConstraint, value: unknown): boolean {
  if (constraint === "any") return true;
  if ("eq" in constraint) return value === constraint.eq;
  if ("in" in constraint) return typeof value === "string" && constraint.in.includes(value);
  const number = numericArg(value);
  if (number === undefined) return false;
  if ("min" in constraint && number < constraint.min) return false;
  if ("max" in constraint && number > constraint.max) return false;
  return true;
}

/**
 * True only when a call's args stay in the room the approval gives: every arg
 * the call passes has a constraint and satisfies it (`eq` exactly the same
 * string, `in` one of the listed strings, `min`/`max` compared on the arg read
 * as a finite decimal number, `"any"` anything), every arg constrained by `eq`,
 * `in`, `min` or `max` is present (only `"any"` lets an arg be left out), and a
 * budget summed over an arg (`budget.sum`) gets that arg as a number of at least
 * 0 (a negative amount would give budget back). Pure: the budget itself is counted
 * by the caller.
 */
export function checkApprovalArgs(approval: Pick<Approval, "args" | "budget">, args: Record<string, unknown>): boolean {
  if (typeof args !== "object" || args === null || Array.isArray(args)) return false;
  for (const name of Object.keys(args)) {
    if (!Object.hasOwn(approval.args, name)) return false;
  }
  for (const [name, constraint] of Object.entries(approval.args)) {
    const present = Object.hasOwn(args, name);
    if (!present) {
      if (constraint === "any") continue;
      return false;
    }
    if (!satisfies(constraint, args[name])) return false;
  }
  const sum = approval.budget.sum;
  if (sum !== undefined) {
    const amount = Object.hasOwn(args, sum.arg) ? numericArg(args[sum.arg]) : undefined;
    if (amount === undefined || amount < 0) return false;
  }
  return true;
}

/** True when the approval is for exactly this integration, manifest and op. */
export function approvalCoversOp(
  approval: Pick<Approval, "integration" | "manifest_hash" | "op">,
  call: { integration: string; manifestHash: string; op: string },
): boolean {
  return approval.integration === call.integration && approval.manifest_hash === call.manifestHash && approval.op === call.op;
}
