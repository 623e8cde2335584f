import type { Manifest } from "@eleven-integrations/schema";
import { checkApprovalArgsShape, checkApprovalBudget, type ApprovalArgs, type ApprovalBudget, type ArgConstraint } from "./approval-payload.js";
import { layoutConfirm } from "./confirm-layout.js";
import { GrantError } from "./grant-error.js";
import { isUnixSeconds } from "./grant-payload.js";

export interface RenderApprovalLineInput {
  manifest: Manifest;
  /** The write op approved. */
  op: string;
  /** A constraint for every arg the op declares, and no other. */
  args: Record<string, ArgConstraint>;
  budget: ApprovalBudget;
  /** When the approval ends, Unix seconds. */
  exp: number;
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** `86400` is "a day", `3600` "an hour", `604800` "a week"; any other window "every N seconds". */
export function budgetWindow(perSeconds: number): string {
  if (perSeconds === 86_400) return "a day";
  if (perSeconds === 3_600) return "an hour";
  if (perSeconds === 604_800) return "a week";
  return `every ${perSeconds} seconds`;
}

/** A Unix time as its UTC date and minute: `7 Jan 2027, 09:05 UTC`. */
export function utcDate(unixSeconds: number): string {
  const date = new Date(unixSeconds * 1000);
  const time = `${String(date.getUTCHours()).padStart(2, "0")}:${String(date.getUTCMinutes()).padStart(2, "0")}`;
  return `${date.getUTCDate()} ${MONTHS[date.getUTCMonth()] ?? ""} ${date.getUTCFullYear()}, ${time} UTC`;
}

// Numbers are the approval's own (finite, checked): written as JavaScript writes them, never cut.
function numberText(value: number): string {
  return String(value);
}

/** Template text for one constraint; values become `{vN}` placeholders filled (and neutralised) by `layoutConfirm`. */
function constraintText(name: string, constraint: ArgConstraint, values: Record<string, string>): string {
  const placeholder = (value: string): string => {
    const key = `v${Object.keys(values).length}`;
    values[key] = value;
    return `“{${key}}”`;
  };
  if (constraint === "any") return `${name} is any value`;
  if ("eq" in constraint) return `${name} is ${placeholder(constraint.eq)}`;
  if ("in" in constraint) return `${name} is one of ${constraint.in.map(placeholder).join(", ")}`;
  if ("min" in constraint && "max" in constraint) return `${name} is from ${numberText(constraint.min)} to ${numberText(constraint.max)}`;
  if ("min" in constraint) return `${name} is at least ${numberText(constraint.min)}`;
  return `${name} is at most ${numberText(constraint.max)}`;
}

function budgetText(budget: ApprovalBudget): string {
  const window = budgetWindow(budget.per_seconds);
  let text = `at most ${budget.runs} ${budget.runs === 1 ? "run" : "runs"} ${window}`;
  if (budget.sum !== undefined) text += ` and ${budget.sum.arg} adding up to at most ${numberText(budget.sum.max)} ${window}`;
  return text;
}

// The label is the manifest's text; a `{` in it must not become a placeholder of this line.
function literal(text: string): string {
  return text.replaceAll("{", "\uFF5B").replaceAll("}", "\uFF5D");
}

function checkedArgs(declared: readonly string[], args: ApprovalArgs): string[] {
  const names = Object.keys(args).sort();
  for (const name of names) {
    if (!declared.includes(name)) throw new GrantError("malformed", `the op declares no arg \`${name}\``);
  }
  for (const name of declared) {
    if (!Object.hasOwn(args, name)) throw new GrantError("malformed", `the approval leaves \`${name}\` without a constraint ("any" must be said)`);
  }
  return names;
}

/**
 * The line a member sees before signing a standing approval, e.g. `Always allow,
 * without asking each time: Post a message; channel is “#standup”; text is any
 * value; at most 20 runs a day; until 7 Jan 2027, 00:00 UTC. These writes will
 * run without asking you.` It names the op (its label), every arg's constraint
 * (args in code-unit order; `eq`/`in` values neutralised, quoted and cut exactly as
 * confirm values are, by `renderConfirm`'s layout, so the whole line stays
 * bounded), the budget and the expiry. The same inputs always give the same line.
 * Throws `GrantError` `malformed` for an op the manifest does not declare, a read,
 * an arg the op does not declare or leaves unconstrained, or a bad budget.
 */
export function renderApprovalLine(input: RenderApprovalLineInput): string {
  const operation = input.manifest.ops.find((candidate) => candidate.id === input.op);
  if (operation === undefined) throw new GrantError("malformed", "the manifest declares no such op");
  if (operation.access !== "write") throw new GrantError("malformed", "only a write is approved: a read needs no approval");
  if (!isUnixSeconds(input.exp)) throw new GrantError("malformed", "exp must be Unix seconds");
  const args = checkApprovalArgsShape(input.args);
  const budget = checkApprovalBudget(input.budget);
  const names = checkedArgs(Object.keys(operation.args ?? {}), args);
  if (budget.sum !== undefined && !Object.hasOwn(args, budget.sum.arg)) {
    throw new GrantError("malformed", "`budget.sum.arg` must be one of the op's args");
  }

  const values: Record<string, string> = {};
  const pieces = [`Always allow, without asking each time: ${literal(operation.label)}`];
  for (const name of names) pieces.push(constraintText(name, args[name] as ArgConstraint, values));
  pieces.push(budgetText(budget), `until ${utcDate(input.exp)}. These writes will run without asking you.`);
  return layoutConfirm(pieces.join("; "), values).text;
}
