import {
  conditionalLeaf,
  eachLeaf,
  isConditionalLeaf,
  isEachLeaf,
  isListArgType,
  itemArgType,
  splitTemplate,
  typedValue,
  type ArgType,
  type ArgValue,
  type JsonValue,
  type TemplatePart,
} from "@eleven-integrations/schema";

/** Marks a leaf whose optional arg was not given: its key (or array item) is dropped. */
const MISSING = Symbol("missing");
type Rendered = JsonValue | typeof MISSING;
type Node = (args: BodyArgs) => Rendered;
/** The checked args a body renders with (an `rfc2822` op's built `message` among them). */
export type BodyArgs = Readonly<Record<string, ArgValue>>;

/**
 * Compiles a `body_json` template into a builder, once at load. String leaves are
 * filled with arg values (never parsed as JSON, so a value stays one string); objects
 * are built without a prototype so a `__proto__` key stays data. A leaf that is exactly
 * `"{name}"` of a typed arg (`types`) renders as that JSON type: `"{duration}"` -> `30`.
 */
export function compileBody(template: JsonValue, types: ReadonlyMap<string, ArgType> = new Map()): (args: BodyArgs) => JsonValue {
  const node = compileTree(template, types);
  return (args) => {
    const rendered = node(args);
    return rendered === MISSING ? null : rendered;
  };
}

function compileTree(template: JsonValue, types: ReadonlyMap<string, ArgType>): Node {
  const compileNode = (node: JsonValue): Node => compileTree(node, types);
  if (typeof template === "string") return compileLeaf(splitTemplate(template), types);
  if (Array.isArray(template)) {
    const items = template.map(compileNode);
    return (args) => {
      const out: JsonValue[] = [];
      for (const item of items) {
        const value = item(args);
        if (value !== MISSING) out.push(value);
      }
      return out;
    };
  }
  if (isEachLeaf(template)) {
    // `{ "$each": "attendees", "value": ... }`: one rendered value per item, the list arg standing for the item inside.
    const { arg, value } = eachLeaf(template);
    const listType = types.get(arg);
    const itemTypes = new Map(types);
    if (isListArgType(listType)) itemTypes.set(arg, itemArgType(listType));
    const node = compileTree(value as JsonValue, itemTypes);
    return (args) => {
      const list = Object.hasOwn(args, arg) ? args[arg] : undefined;
      if (!Array.isArray(list)) return MISSING;
      const out: JsonValue[] = [];
      for (const item of list) {
        const rendered = node({ ...args, [arg]: item });
        if (rendered !== MISSING) out.push(rendered);
      }
      return out;
    };
  }
  if (isConditionalLeaf(template)) {
    // `{ "$when": { "arg", "eq" }, "value" }`: the value when the arg was given as exactly `eq`, else dropped.
    const { when, value } = conditionalLeaf(template);
    const node = compileNode(value as JsonValue);
    return (args) => (Object.hasOwn(args, when.arg) && args[when.arg] === when.eq ? node(args) : MISSING);
  }
  if (template !== null && typeof template === "object") {
    const entries = Object.entries(template).map(([key, value]) => [key, compileNode(value as JsonValue)] as const);
    return (args) => {
      const out = Object.create(null) as Record<string, JsonValue>;
      for (const [key, node] of entries) {
        const value = node(args);
        if (value !== MISSING) out[key] = value;
      }
      return out;
    };
  }
  return () => template;
}

function compileLeaf(parts: TemplatePart[], types: ReadonlyMap<string, ArgType>): Node {
  if (parts.every((part) => part.kind === "literal")) {
    const text = parts.map((part) => (part.kind === "literal" ? part.text : "")).join("");
    return () => text;
  }
  const only = parts.length === 1 ? parts[0] : undefined;
  const type = only?.kind === "arg" ? types.get(only.name) : undefined;
  if (only?.kind === "arg" && isListArgType(type)) {
    const { name } = only;
    // A list arg's whole leaf is a JSON array of its items, each of the item type (checked before the body renders).
    return (args) => {
      const value = Object.hasOwn(args, name) ? args[name] : undefined;
      return Array.isArray(value) ? value.map((item) => typedValue(item, type)) : MISSING;
    };
  }
  if (only?.kind === "arg" && type !== undefined && type !== "string" && type !== "path" && type !== "file") {
    const { name } = only;
    // The value was checked as `type` before the body renders.
    return (args) => (Object.hasOwn(args, name) && typeof args[name] === "string" ? typedValue(args[name], type) : MISSING);
  }
  return (args) => {
    let out = "";
    for (const part of parts) {
      if (part.kind === "literal") out += part.text;
      else {
        const value = Object.hasOwn(args, part.name) ? args[part.name] : undefined;
        if (typeof value !== "string") return MISSING;
        out += value;
      }
    }
    return out;
  };
}
