import { z } from "zod";
import { ARG_TYPES, argTypeProblem, MAX_LIST_ITEMS } from "./arg-type.js";
import { argShapeRules } from "./arg-shapes.js";
import { bytesContentType, multipartSchema, uploadRules } from "./upload-rules.js";
import { ARG_NAME, DEFAULT_MAX_LENGTH, MAX_MAX_LENGTH, dotPath, plainText, regexPattern, text } from "./field-schemas.js";
import { HOST_NAME } from "./auth-transport.js";
import { opHeaderRules, opHeadersSchema } from "./op-headers.js";
import { OP_ID_PATTERN, SCOPE_TOKEN } from "./patterns.js";
import { forEachPathPlaceholder, pathPlaceholderAt, pathTemplateProblems } from "./path-template.js";
import { pagingSchema, type Paging } from "./paging.js";
import { placeholderNames, placeholdersDeclared } from "./placeholders.js";
import { previewSchema } from "./preview.js";
import { problemCheck, rulesCheck, type IssueSink } from "./rule-checks.js";

export const argSchema = z.strictObject({
  required: z.boolean().optional(),
  description: plainText(500).optional(),
  max_length: z.number().int().min(1).max(MAX_MAX_LENGTH).optional(),
  pattern: regexPattern.optional(),
  enum: z.array(z.string()).min(1).optional(),
  /**
   * The type the (always string) value is checked as; a body leaf that is exactly
   * `"{name}"` renders as that JSON type. Absent: `string`.
   */
  type: z.enum(ARG_TYPES).optional(),
  /** A list arg's most items (required on `string[]` and `integer[]`, at most 100). */
  max_items: z.number().int().min(1).max(MAX_LIST_ITEMS).optional(),
});

export const pickSchema = z
  .strictObject({
    root: dotPath.optional(),
    fields: z.array(dotPath).optional(),
  })
  .check(
    problemCheck((pick) =>
      pick.root === undefined && (pick.fields === undefined || pick.fields.length === 0) ? "needs a root or at least one field" : undefined,
    ),
  );

const jsonBody = z.union([z.record(z.string(), z.json()), z.array(z.json())]);

const operationFields = z.strictObject({
  id: z.string().regex(OP_ID_PATTERN, "must be namespace.verb (lowercase letters, digits, _)"),
  label: text(200),
  access: z.enum(["read", "write"]),
  method: z.enum(["GET", "POST", "PUT", "PATCH", "DELETE"]),
  path: z
    .string()
    .max(2048)
    .check(
      rulesCheck((path: string, issue) => {
        for (const message of pathTemplateProblems(path)) issue([], message);
      }),
    ),
  args: z.record(z.string().regex(ARG_NAME, "arg names are [a-z][a-z0-9_]*"), argSchema).optional(),
  body_json: jsonBody.optional(),
  encoding: z.enum(["json", "form", "rfc2822", "bytes", "multipart"]).optional(),
  /** An `encoding: "multipart"` op's parts (see upload-rules). */
  multipart: multipartSchema.optional(),
  /** An `encoding: "bytes"` op's Content-Type, sent instead of the file's (Dropbox takes only application/octet-stream). */
  content_type: bytesContentType.optional(),
  confirm: text(500).optional(),
  /**
   * The op destroys, closes, cancels or commits to something that is hard to
   * undo (a delete, a close, a registration that costs money). Agents are told
   * so (MCP `destructiveHint`). Absent: not marked, as in the first release.
   */
  destructive: z.boolean().optional(),
  pick: pickSchema.optional(),
  /**
   * A read the provider takes with a method other than GET because its query travels in a
   * body (a search, a GraphQL query, an RPC-style API): it changes nothing. Unmarked, such a
   * read draws `integrations validate`'s read-method warning.
   */
  search: z.boolean().optional(),
  page: pagingSchema.optional(),
  /** On a write: a read of the same manifest whose answer shows the member what the write will touch. */
  preview: previewSchema.optional(),
  /** OAuth scopes asked, beyond `auth.oauth.scopes`, only when a grant includes this op. */
  scopes: z.array(z.string().min(1).regex(SCOPE_TOKEN, "must be a valid scope token")).min(1).max(50).optional(),
  /** The op's own request headers, templates of its args (see op-headers). */
  headers: opHeadersSchema.optional(),
  /**
   * `file`: a read whose answer is a file's bytes (a download). The executor reads at most its
   * response cap and answers the file's name, size, type and SHA-256; the sidecar keeps the bytes.
   */
  result: z.enum(["file"]).optional(),
  /** A further host of `auth.hosts` the op is sent to instead of `base`. */
  host: z.string().regex(HOST_NAME, "must name a host of auth.hosts").optional(),
});

export const operationSchema = operationFields.check(rulesCheck(operationRules));

const NO_ARGS: Readonly<Record<string, Arg>> = Object.freeze({});

/** The rules that tie an op's fields together: access, method and body, and where each placeholder names a declared arg. */
function operationRules(operation: z.infer<typeof operationFields>, issue: IssueSink): void {
  const args = operation.args ?? NO_ARGS;
  if (operation.access === "write" && operation.confirm === undefined) issue(["confirm"], "every write needs a confirm line");
  if (operation.destructive === true && operation.access !== "write") issue(["destructive"], "only a write can be destructive");
  if (operation.access === "read" && operation.confirm !== undefined) {
    issue(["confirm"], "a read carries no confirm line: reads run with no tap, so the member would never see it (make the op a write if it changes something)");
  }
  if (operation.search === true && operation.access !== "read") issue(["search"], "only a read is a search");
  if (operation.method === "GET" && operation.body_json !== undefined) issue(["body_json"], "a GET op carries no body");
  if (operation.preview !== undefined && operation.access !== "write") issue(["preview"], "only a write has a preview (it shows what the write will touch)");
  if (operation.encoding === "form" && operation.body_json !== undefined && Array.isArray(operation.body_json)) {
    issue(["body_json"], "a form body must be an object");
  }
  const pathHolds = pathTemplateProblems(operation.path).length === 0;
  // Loops rather than callbacks: no closure per op (a registry's load checks tens of thousands).
  if (pathHolds) {
    const path = operation.path;
    const queryStart = path.indexOf("?");
    for (let open = path.indexOf("{"); open !== -1; open = path.indexOf("{", open + 1)) {
      const name = pathPlaceholderAt(path, open);
      const arg = args[name];
      if (arg === undefined) issue(["path"], `placeholder {${name}} names no declared arg`);
      else if (!(queryStart !== -1 && open > queryStart) && arg.required !== true) {
        issue(["args", name, "required"], `{${name}} fills a path segment, so it must be required`);
      }
    }
  }
  if (operation.confirm !== undefined) confirmRules(operation.confirm, operation.access, args, issue);
  // The walk that names where a problem is runs only when there is one.
  const bodyArgs = operation.encoding === "rfc2822" ? { ...args, message: {} } : args;
  if (operation.body_json !== undefined && !bodyPlaceholdersDeclared(operation.body_json, bodyArgs))
    bodyPlaceholderRules(operation.body_json, bodyArgs, issue, []);
  argShapeRules(operation, issue);
  uploadRules(operation, issue);
  if (operation.page !== undefined) pagingProblems(operation, pathHolds, issue);
  if (operation.headers !== undefined) opHeaderRules(operation.headers, args, issue);
  if (operation.result === "file") {
    if (operation.access !== "read") issue(["result"], "only a read answers a file (a download)");
    if (operation.page !== undefined) issue(["result"], "a file answer is one file: it does not page");
    if (operation.pick !== undefined) issue(["pick"], "a file answer is bytes, not JSON: it has no pick");
  }
  for (const name in args) {
    const arg = args[name] as Arg;
    if (Object.hasOwn(args, name) && arg.enum !== undefined) enumRules(name, arg, arg.enum, issue);
  }
}

/**
 * Whether a line holds a `{name}` placeholder for every required arg: a valid arg name in braces is a
 * whole placeholder wherever it stands. Any other name answers false, and the caller's full check decides.
 */
function showsEveryRequiredArg(line: string, args: Readonly<Record<string, Arg>>): boolean {
  for (const name in args) {
    if (!Object.hasOwn(args, name) || (args[name] as Arg).required !== true) continue;
    if (!ARG_NAME.test(name) || !line.includes(`{${name}}`)) return false;
  }
  return true;
}

/** Each value of an arg's enum fits its max_length and its type. (Its own function: a closure in the loop above would cost a context per arg.) */
function enumRules(name: string, arg: Arg, values: readonly string[], issue: IssueSink): void {
  const maxLength = arg.max_length ?? DEFAULT_MAX_LENGTH;
  for (let index = 0; index < values.length; index += 1) {
    const value = values[index] as string;
    if (codePointsOver(value, maxLength)) issue(["args", name, "enum", index], `is longer than max_length ${maxLength}`);
    const typeProblem = arg.type === undefined ? undefined : argTypeProblem(value, arg.type);
    if (typeProblem !== undefined) issue(["args", name, "enum", index], `is not of the arg's type ${arg.type}: ${typeProblem}`);
  }
}

/** Whether every placeholder in a string of the body (at any depth) names a declared arg. */
function bodyPlaceholdersDeclared(value: unknown, args: Readonly<Record<string, Arg>>): boolean {
  if (typeof value === "string") return placeholdersDeclared(value, args);
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index += 1) if (!bodyPlaceholdersDeclared(value[index], args)) return false;
    return true;
  }
  if (value !== null && typeof value === "object") {
    for (const key in value) if (Object.hasOwn(value, key) && !bodyPlaceholdersDeclared((value as Record<string, unknown>)[key], args)) return false;
  }
  return true;
}

/** Every placeholder in a string of the body (at any depth) names a declared arg: an issue, at its place, for each that does not. */
function bodyPlaceholderRules(value: unknown, args: Readonly<Record<string, Arg>>, issue: IssueSink, keys: PropertyKey[]): void {
  if (typeof value === "string") {
    if (!value.includes("{")) return;
    for (const name of placeholderNames(value)) {
      if (args[name] === undefined) issue(["body_json", ...keys], `placeholder {${name}} names no declared arg`);
    }
  } else if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index += 1) {
      keys.push(index);
      bodyPlaceholderRules(value[index], args, issue, keys);
      keys.pop();
    }
  } else if (value !== null && typeof value === "object") {
    for (const key in value) {
      if (!Object.hasOwn(value, key)) continue;
      keys.push(key);
      bodyPlaceholderRules((value as Record<string, unknown>)[key], args, issue, keys);
      keys.pop();
    }
  }
}

/** Every placeholder of the confirm line names a declared arg, and a write's line shows every required arg. */
function confirmRules(confirm: string, access: Access, args: Readonly<Record<string, Arg>>, issue: IssueSink): void {
  // The usual line, checked without making the list of its placeholders: the list below is made only to name a problem.
  if (placeholdersDeclared(confirm, args) && (access !== "write" || showsEveryRequiredArg(confirm, args))) return;
  const shown = placeholderNames(confirm);
  // Once per name, as often as the line repeats it.
  shown.forEach((name, index) => {
    if (args[name] === undefined && shown.indexOf(name) === index) issue(["confirm"], `placeholder {${name}} names no declared arg`);
  });
  if (access !== "write") return;
  for (const name in args) {
    if (Object.hasOwn(args, name) && (args[name] as Arg).required === true && !shown.includes(name)) {
      issue(
        ["confirm"],
        `leaves out the required arg {${name}}: a write's confirm line must show every required value it sends, so the member sees what they approve (add {${name}} to the line)`,
      );
    }
  }
}

/** More than `max` code points, counted only as far as needed. */
function codePointsOver(value: string, max: number): boolean {
  if (value.length <= max) return false;
  let count = 0;
  for (let index = 0; index < value.length; index += 1) {
    const code = value.charCodeAt(index);
    // A surrogate pair is one code point.
    if (code >= 0xd800 && code <= 0xdbff && index + 1 < value.length) {
      const next = value.charCodeAt(index + 1);
      if (next >= 0xdc00 && next <= 0xdfff) index += 1;
    }
    if (++count > max) return true;
  }
  return false;
}

export type Operation = z.infer<typeof operationSchema>;
export type Arg = z.infer<typeof argSchema>;
export type Pick = z.infer<typeof pickSchema>;
export type Access = Operation["access"];
export type Method = Operation["method"];

/**
 * A paging read: its cursor arg is one of its args, placed in a query value or a whole body
 * leaf (whether it may be required depends on the other ops: see manifest-rules); with
 * `next_op` it has no cursor arg of its own; a `next_path` op is a GET.
 */
function pagingProblems(
  operation: { access: string; method: string; path: string; args?: Record<string, unknown> | undefined; page?: Paging | undefined; body_json?: unknown },
  pathHolds: boolean,
  issue: IssueSink,
): void {
  const page = operation.page as Paging;
  if (operation.access !== "read") issue(["page"], "only a read op pages");
  if (page.from === "next_path") {
    if (operation.method !== "GET") issue(["page", "from"], "a next path is fetched with GET, so only a GET op pages by next_path");
    if ((page.path === undefined) === (page.top_key === undefined)) {
      issue(["page"], 'a next_path names where the next path is with exactly one of "path" (a dot-path) and "top_key" (a top-level key as written)');
    }
    return;
  }
  if (page.from === "offset" || page.from === "page") {
    countedPagingProblems(operation, page, pathHolds, issue);
    return;
  }
  if (page.next_op !== undefined) {
    if (page.arg !== undefined) issue(["page", "arg"], `the cursor goes to ${page.next_op}'s own page.arg, so this op takes none: leave "arg" out`);
    return;
  }
  const name = page.arg;
  if (name === undefined) {
    issue(["page"], 'needs "arg" (the op\'s arg that carries the cursor), or "next_op" (the read that takes it)');
    return;
  }
  if (operation.args?.[name] === undefined) {
    issue(["page", "arg"], `names no declared arg ("${name}")`);
    return;
  }
  if (!argPlaced(operation, name, pathHolds)) issue(["page", "arg"], `{${name}} must fill a query value or a whole body leaf, where the cursor is sent`);
}

/** Offset and page-number paging: the cursor arg and the limit arg are declared, distinct and placed where they are sent. */
function countedPagingProblems(
  operation: { path: string; args?: Record<string, unknown> | undefined; body_json?: unknown },
  page: Extract<Paging, { from: "offset" | "page" }>,
  pathHolds: boolean,
  issue: IssueSink,
): void {
  const fields: ["arg" | "limit_arg", string | undefined][] = [
    ["arg", page.arg],
    ["limit_arg", page.limit_arg],
  ];
  for (const [field, name] of fields) {
    if (name === undefined) continue;
    if (operation.args?.[name] === undefined) issue(["page", field], `names no declared arg ("${name}")`);
    else if (!argPlaced(operation, name, pathHolds)) issue(["page", field], `{${name}} must fill a query value or a whole body leaf, where it is sent`);
  }
  if (page.limit_arg !== undefined && page.limit !== undefined)
    issue(["page", "limit"], 'the page size is either sent by "limit_arg" or fixed by "limit", not both');
  if (page.limit_arg !== undefined && page.limit_arg === page.arg)
    issue(["page", "limit_arg"], "must be another arg than the one that carries the offset or page");
}

/** Whether the arg fills a query value of the path, or a string leaf of the body that is exactly `{name}`. */
function argPlaced(operation: { path: string; body_json?: unknown }, name: string, pathHolds: boolean): boolean {
  let placed = false;
  if (pathHolds) {
    forEachPathPlaceholder(operation.path, (placeholder, inQuery) => {
      if (inQuery && placeholder === name) placed = true;
    });
  }
  if (!placed && operation.body_json !== undefined) {
    const whole = `{${name}}`;
    forEachStringLeaf(operation.body_json, (leaf) => {
      if (leaf === whole) placed = true;
    });
  }
  return placed;
}

/**
 * Visits each string leaf of a JSON value with the keys that lead to it from `value`:
 * one stack shared by every call, so copy `keys` to keep them.
 */
export function forEachStringLeaf(value: unknown, visit: (leaf: string, keys: readonly PropertyKey[]) => void, keys: PropertyKey[] = []): void {
  if (typeof value === "string") visit(value, keys);
  else if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index += 1) {
      keys.push(index);
      forEachStringLeaf(value[index], visit, keys);
      keys.pop();
    }
  } else if (value !== null && typeof value === "object") {
    for (const key in value) {
      if (!Object.hasOwn(value, key)) continue;
      keys.push(key);
      forEachStringLeaf((value as Record<string, unknown>)[key], visit, keys);
      keys.pop();
    }
  }
}
