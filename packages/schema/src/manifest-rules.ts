import type { Auth } from "./auth-schema.js";
import type { Arg, Operation } from "./operation-schema.js";
import { placeholderNames } from "./placeholders.js";
import { splitLine } from "./preview-line.js";
import type { IssueSink } from "./rule-checks.js";

/**
 * Rules that tie one op to another: the identity op, a write's preview read, a list's
 * continuation op, and which cursor args may be required. Each problem carries its path.
 */
export function manifestRules(manifest: { readonly auth: Auth; readonly ops: readonly Operation[] }, issue: IssueSink): void {
  const { ops } = manifest;
  identityProblems(manifest.auth, ops, issue);
  for (let index = 0; index < ops.length; index += 1) {
    const op = ops[index] as Operation;
    if (op.preview !== undefined) previewProblems(op, index, ops, issue);
    const next = nextOpOf(op);
    if (next !== undefined) nextOpProblems(op, next, index, ops, issue);
    if (op.scopes !== undefined && manifest.auth.oauth === undefined)
      issue(["ops", index, "scopes"], "per-op scopes need auth.oauth (they are asked at connect)");
  }
  for (let index = 0; index < ops.length; index += 1) {
    const op = ops[index] as Operation;
    if (op.host !== undefined || op.headers !== undefined) transportProblems(manifest.auth, op, index, issue);
    const cursor = op.page === undefined || op.page.from === "next_path" ? undefined : op.page.arg;
    if (cursor !== undefined && op.args?.[cursor]?.required === true && !continuedBy(ops, op.id)) {
      issue(
        ["ops", index, "args", cursor, "required"],
        "carries the page cursor, so it must be optional (the first page has none), unless another op names this one as its page.next_op",
      );
    }
  }
}

/** Whether another op's page token continues to the op `id`. */
function continuedBy(ops: readonly Operation[], id: string): boolean {
  for (let index = 0; index < ops.length; index += 1) if (nextOpOf(ops[index] as Operation) === id) return true;
  return false;
}

type Issue = IssueSink;

/** The op another op's page token continues to, if any. */
function nextOpOf(op: Operation): string | undefined {
  return op.page === undefined || !("next_op" in op.page) ? undefined : op.page.next_op;
}

/** An op's host is one of `auth.hosts`; its headers set no name that `auth.headers` or `auth.credential` sets. */
function transportProblems(auth: Auth, op: Operation, index: number, issue: Issue): void {
  if (op.host !== undefined && (auth.hosts === undefined || !Object.hasOwn(auth.hosts, op.host))) {
    issue(["ops", index, "host"], `names no host of auth.hosts ("${op.host}")`);
  }
  if (op.headers === undefined) return;
  const taken = new Map<string, string>();
  for (const name of Object.keys(auth.headers ?? {})) taken.set(name.toLowerCase(), `auth.headers ("${name}")`);
  if (auth.credential?.in === "header") taken.set(auth.credential.name.toLowerCase(), "auth.credential");
  for (const name of Object.keys(op.headers)) {
    const owner = taken.get(name.toLowerCase());
    if (owner !== undefined) issue(["ops", index, "headers", name], `is already set by ${owner}`);
  }
}

/** The op a rule names (rarely asked): the last one of that id, as a map built from the list would hold. */
function opById(ops: readonly Operation[], id: string): Operation | undefined {
  for (let index = ops.length - 1; index >= 0; index -= 1) if ((ops[index] as Operation).id === id) return ops[index];
  return undefined;
}

function identityProblems(auth: Auth, ops: readonly Operation[], issue: Issue): void {
  if (auth.identity === undefined) return;
  const op = opById(ops, auth.identity);
  if (op === undefined) return issue(["auth", "identity"], `names no op of this manifest ("${auth.identity}")`);
  if (op.access !== "read") return issue(["auth", "identity"], `must name a read op; ${op.id} is a ${op.access}`);
  const required = requiredArgs(op);
  if (required.length > 0) issue(["auth", "identity"], `${op.id} takes required args (${required.join(", ")}), but the identity op runs with none`);
  if (op.page !== undefined) issue(["auth", "identity"], `${op.id} pages, but the identity op answers one account, not a list`);
  const picked = op.pick?.fields ?? [];
  for (const key of ["id", "name"] as const) {
    const field = auth.identity_fields?.[key] ?? key;
    if (picked.includes(field)) continue;
    const path = auth.identity_fields?.[key] === undefined ? ["auth", "identity"] : ["auth", "identity_fields", key];
    issue(path, `the account's ${key} "${field}" is not a picked field of ${op.id} (pick.fields: ${picked.length === 0 ? "none" : picked.join(", ")})`);
  }
}

function previewProblems(op: Operation, index: number, ops: readonly Operation[], issue: Issue): void {
  const preview = op.preview as NonNullable<Operation["preview"]>;
  const at = (...path: PropertyKey[]) => ["ops", index, "preview", ...path];
  const read = opById(ops, preview.op);
  if (read === undefined) return issue(at("op"), `names no op of this manifest ("${preview.op}")`);
  if (read.access !== "read") return issue(at("op"), `must name a read op; ${read.id} is a ${read.access}`);
  const writeArgs = op.args ?? {};
  const given = preview.args ?? {};
  for (const name in given) {
    if (!Object.hasOwn(given, name)) continue;
    const template = given[name] as string;
    const readArg = read.args?.[name];
    if (readArg === undefined) {
      issue(at("args", name), `is not an arg of ${read.id}`);
      continue;
    }
    const placeholders = placeholderNames(template);
    for (let slot = 0; slot < placeholders.length; slot += 1) {
      const placeholder = placeholders[slot] as string;
      const writeArg = writeArgs[placeholder];
      if (writeArg === undefined) issue(at("args", name), `placeholder {${placeholder}} names no arg of ${op.id}`);
      else if (readArg.required === true && writeArg.required !== true) {
        issue(at("args", name), `fills ${read.id}'s required arg from {${placeholder}}, which ${op.id} does not require: the preview could not run without it`);
      }
    }
  }
  // Indexed loops: no iterator per loop in code that runs once per write at load.
  const required = requiredArgs(read);
  for (let index = 0; index < required.length; index += 1) {
    const name = required[index] as string;
    if (!Object.hasOwn(given, name)) issue(at("args"), `leaves out ${read.id}'s required arg "${name}"`);
  }
  const picked = read.pick?.fields ?? [];
  const parts = splitLine(preview.line);
  for (let index = 0; index < parts.length; index += 1) {
    const part = parts[index] as (typeof parts)[number];
    if (part.kind !== "field") continue;
    const field = part.select === undefined ? part.path : part.select.field;
    if (!picked.includes(field)) {
      issue(at("line"), `{${field}} is not a picked field of ${read.id} (pick.fields: ${picked.length === 0 ? "none" : picked.join(", ")})`);
    }
    if (part.select !== undefined && !Object.hasOwn(op.args ?? {}, part.select.arg)) {
      issue(at("line"), `{${part.path}} selects by {${part.select.arg}}, which is not an arg of ${op.id}`);
    }
  }
}

function nextOpProblems(op: Operation, nextOp: string, index: number, ops: readonly Operation[], issue: Issue): void {
  const path = ["ops", index, "page", "next_op"];
  const next = opById(ops, nextOp);
  if (next === undefined) return issue(path, `names no op of this manifest ("${nextOp}")`);
  if (next.id === op.id) return issue(path, 'names this op itself: an op that takes its own cursor declares "arg" instead');
  if (next.access !== "read") return issue(path, `must name a read op; ${next.id} is a ${next.access}`);
  const cursor = next.page === undefined || next.page.from === "next_path" ? undefined : next.page.arg;
  if (cursor === undefined) return issue(path, `${next.id} must declare its own page.arg, the arg that takes the cursor`);
  const others = requiredArgs(next).filter((name) => name !== cursor);
  if (others.length > 0) issue(path, `${next.id} requires args besides its cursor (${others.join(", ")}), which a page token cannot fill`);
}

function requiredArgs(op: Operation): string[] {
  const names: string[] = [];
  const args = op.args ?? {};
  for (const name in args) if (Object.hasOwn(args, name) && (args[name] as Arg).required === true) names.push(name);
  return names;
}
