import { isListArgType, type ArgType } from "./arg-type.js";
import { conditionalLeaf, conditionalLeafProblem, eachLeaf, eachLeafProblem, isConditionalLeaf, isEachLeaf } from "./conditional-leaf.js";
import { isMessageArg, MESSAGE_ARGS, MESSAGE_PLACEHOLDER } from "./message-args.js";
import { parsePathTemplate } from "./path-template.js";
import { placeholderNames, wholePlaceholder } from "./placeholders.js";
import type { IssueSink } from "./rule-checks.js";

interface ShapedArg {
  readonly type?: ArgType | undefined;
  readonly max_items?: number | undefined;
  readonly pattern?: string | undefined;
  readonly enum?: readonly string[] | undefined;
  readonly max_length?: number | undefined;
}

interface ShapedOperation {
  readonly path: string;
  readonly args?: Readonly<Record<string, ShapedArg>> | undefined;
  readonly body_json?: unknown;
  readonly encoding?: string | undefined;
  readonly preview?: { readonly args?: Readonly<Record<string, string>> | undefined } | undefined;
}

/**
 * The rules of the fourth release's arg shapes (issue 38): a list arg declares `max_items` and fills
 * only a whole body leaf or a query value; a file arg fills no template; a `path` arg fills a whole
 * path segment; conditional leaves are well formed and test a declared one-string arg; an `rfc2822`
 * op puts its message in exactly one `"{message}"` leaf and declares its message args with their types.
 */
export function argShapeRules(operation: ShapedOperation, issue: IssueSink): void {
  const args = operation.args ?? {};
  let shaped = operation.encoding === "rfc2822";
  for (const name in args) {
    if (!Object.hasOwn(args, name)) continue;
    const arg = args[name] as ShapedArg;
    if (arg.type === undefined && arg.max_items === undefined) continue;
    shaped = true;
    if (isListArgType(arg.type)) {
      if (arg.max_items === undefined) issue(["args", name, "max_items"], "a list arg must declare max_items (at most 100)");
    } else if (arg.max_items !== undefined) {
      issue(["args", name, "max_items"], 'only a list arg (type "string[]" or "integer[]") takes max_items');
    }
    if (arg.type === "file") {
      for (const field of ["pattern", "enum", "max_length"] as const) {
        if (arg[field] !== undefined) issue(["args", name, field], `a file arg takes no ${field} (its value is a file, at most 8 MiB)`);
      }
    }
  }
  if (operation.body_json !== undefined) bodyRules(operation.body_json, args, issue, []);
  if (!shaped) return;
  pathRules(operation.path, args, issue);
  for (const [name, template] of Object.entries(operation.preview?.args ?? {})) {
    for (const placeholder of placeholderNames(template)) {
      const type = args[placeholder]?.type;
      if (isListArgType(type) || type === "file") issue(["preview", "args", name], `{${placeholder}} is a ${type} arg, which cannot fill a preview read's arg`);
    }
  }
  if (operation.encoding === "rfc2822") messageRules(operation, args, issue);
}

function pathRules(path: string, args: Readonly<Record<string, ShapedArg>>, issue: IssueSink): void {
  const parsed = parsePathTemplate(path);
  if (!parsed.ok) return;
  for (const segment of parsed.template.segments) {
    if (segment.kind !== "arg") continue;
    const type = args[segment.name]?.type;
    if (isListArgType(type)) issue(["path"], `{${segment.name}} is a list arg: it can fill only a query value (repeated keys) or a whole body leaf`);
    else if (type === "file") issue(["path"], `{${segment.name}} is a file arg, which no path can carry`);
    else if (type === "path" && segment.suffix !== undefined) issue(["path"], `{${segment.name}} is a path arg: it fills whole segments, with no suffix`);
  }
  for (const pair of parsed.template.query) {
    if (pair.value.kind === "arg" && args[pair.value.name]?.type === "file") issue(["path"], `{${pair.value.name}} is a file arg, which no query can carry`);
  }
}

function bodyRules(node: unknown, args: Readonly<Record<string, ShapedArg>>, issue: IssueSink, keys: PropertyKey[], items: readonly string[] = []): void {
  if (typeof node === "string") {
    if (!node.includes("{")) return;
    const whole = wholePlaceholder(node);
    for (const name of placeholderNames(node)) {
      // Inside an each leaf's value, the list arg stands for one item: a string like any other.
      if (items.includes(name)) continue;
      const type = args[name]?.type;
      if (type === "file") issue(["body_json", ...keys], `{${name}} is a file arg: only an encoding that carries files can send it`);
      else if (isListArgType(type) && whole !== name)
        issue(["body_json", ...keys], `{${name}} is a list arg: it must be the whole leaf ("{${name}}"), which renders as a JSON array`);
    }
    return;
  }
  if (Array.isArray(node)) {
    for (let index = 0; index < node.length; index += 1) {
      keys.push(index);
      bodyRules(node[index], args, issue, keys, items);
      keys.pop();
    }
    return;
  }
  if (node === null || typeof node !== "object") return;
  if (isEachLeaf(node)) {
    const problem = keys.length === 0 ? "the whole body cannot be an each leaf" : eachLeafProblem(node);
    if (problem !== undefined) return issue(["body_json", ...keys], problem);
    const { arg, value } = eachLeaf(node);
    if (!isListArgType(args[arg]?.type)) issue(["body_json", ...keys, "$each"], `must name a list arg ("${arg}" is not one)`);
    keys.push("value");
    bodyRules(value, args, issue, keys, [...items, arg]);
    keys.pop();
    return;
  }
  if (isConditionalLeaf(node)) {
    const problem = keys.length === 0 ? "the whole body cannot be a conditional leaf" : conditionalLeafProblem(node);
    if (problem !== undefined) return issue(["body_json", ...keys], problem);
    const { when, value } = conditionalLeaf(node);
    const type = args[when.arg] === undefined ? undefined : (args[when.arg]?.type ?? "string");
    if (type === undefined) issue(["body_json", ...keys, "$when", "arg"], `names no declared arg ("${when.arg}")`);
    else if (isListArgType(type) || type === "file")
      issue(["body_json", ...keys, "$when", "arg"], `a condition tests a one-string arg; ${when.arg} is a ${type} arg`);
    keys.push("value");
    bodyRules(value, args, issue, keys, items);
    keys.pop();
    return;
  }
  for (const key in node) {
    if (!Object.hasOwn(node, key)) continue;
    keys.push(key);
    bodyRules((node as Record<string, unknown>)[key], args, issue, keys, items);
    keys.pop();
  }
}

function messageRules(operation: ShapedOperation, args: Readonly<Record<string, ShapedArg>>, issue: IssueSink): void {
  if (Object.hasOwn(args, "message")) issue(["args", "message"], 'an rfc2822 op builds {message} itself, so "message" is not an arg name');
  for (const name in args) {
    if (!Object.hasOwn(args, name) || !isMessageArg(name)) continue;
    const wanted = MESSAGE_ARGS[name];
    const type = args[name]?.type ?? "string";
    if (type !== wanted) issue(["args", name, "type"], `an rfc2822 message takes ${name} as type "${wanted}"`);
  }
  if (!["to", "cc", "bcc"].some((name) => Object.hasOwn(args, name)) && !Object.hasOwn(args, "text")) {
    issue(["args"], "an rfc2822 op builds its message from to, cc, bcc, subject, text, in_reply_to and references: declare at least to or text");
  }
  let leaves = 0;
  let misplaced = false;
  const visit = (node: unknown): void => {
    if (typeof node === "string") {
      if (node === MESSAGE_PLACEHOLDER) leaves += 1;
      else if (node.includes(MESSAGE_PLACEHOLDER)) misplaced = true;
    } else if (Array.isArray(node)) node.forEach(visit);
    else if (node !== null && typeof node === "object") for (const key of Object.keys(node)) visit((node as Record<string, unknown>)[key]);
  };
  if (operation.body_json !== undefined) visit(operation.body_json);
  if (leaves !== 1 || misplaced) issue(["body_json"], 'an rfc2822 op puts its message (base64url) in exactly one body leaf that is exactly "{message}"');
  if (operation.path.includes(MESSAGE_PLACEHOLDER)) issue(["path"], "{message} is the built message: it goes only in the body");
}
