import type { Pick } from "@eleven-integrations/schema";
import { markedError } from "@eleven-integrations/schema";

/** How deep a picked value may nest; deeper responses are refused, never walked. */
export const MAX_PICK_DEPTH = 64;

/** The response could not be projected (it nests deeper than {@link MAX_PICK_DEPTH}). */
export class PickError extends markedError("PickError") {
  readonly code = "too_deep" as const;
  constructor() {
    super(`the response nests deeper than ${MAX_PICK_DEPTH} levels`);
  }
}

export type PickAccessor = (body: unknown) => unknown;

type PlainObject = Record<string, unknown>;
/**
 * An empty object without a prototype. `Object.create(null)` gives the same object, but
 * V8 keeps that one in dictionary mode, which makes picking and serialising a result
 * half again as slow; a fresh literal whose prototype is then set to null stays fast.
 */
const nullPrototypeObject = (): PlainObject => Object.setPrototypeOf({}, null) as PlainObject;
const isObject = (value: unknown): value is PlainObject => value !== null && typeof value === "object" && !Array.isArray(value);

/**
 * Compiles a `pick` into an accessor, once at load. The accessor reads only own
 * properties, builds its output on null-prototype objects and refuses values that
 * nest deeper than {@link MAX_PICK_DEPTH}, so no response can pollute or overflow it.
 */
export function compilePick(pick: Pick): PickAccessor {
  const root = pick.root?.split(".");
  const fields = (pick.fields ?? []).map((field) => ({ key: field, segments: field.split(".") }));
  const reduce = compileReduce(fields);
  return (body) => {
    const value = root === undefined ? body : walk(body, root, 0, 0);
    if (value === undefined) return null;
    if (fields.length === 0) return copy(value, 0);
    if (Array.isArray(value)) {
      const out: PlainObject[] = [];
      for (const item of value) if (isObject(item)) out.push(reduce(item, 1));
      return out;
    }
    return isObject(value) ? reduce(value, 0) : null;
  };
}

type Reduce = (object: PlainObject, depth: number) => PlainObject;

/**
 * The function that picks `fields` from one object, generated as JavaScript once per
 * pick: each field's name is a literal, so every output object is built by the same
 * named stores in the same order (one shape the engine keeps fast) instead of a store
 * by a key computed in a loop, about twice as fast on a list of results. A one-segment
 * field reads its own property directly; a dotted one goes through `walk`. The same
 * answers as a loop over the fields with `walk` and `copy` (a test compares them).
 */
function compileReduce(fields: readonly { key: string; segments: readonly string[] }[]): Reduce {
  const steps = fields.map((field, index) => {
    const name = JSON.stringify(field.key);
    const read = `if (depth + ${field.segments.length} > MAX) value = walk(object, segments[${index}], 0, depth);\n  else {\n${readInline(field.segments, index)}\n  }`;
    return `${read}\n  if (value !== undefined) out[${name}] = copy(value, depth + 1);`;
  });
  const source = `"use strict";\nreturn function reduce(object, depth) {\n  const out = nullPrototypeObject();\n  let value;\n  ${steps.join("\n  ")}\n  return out;\n};`;
  const build = new Function("walk", "copy", "nullPrototypeObject", "hasOwn", "segments", "MAX", source) as (
    walkValue: typeof walk,
    copyValue: typeof copy,
    makeObject: typeof nullPrototypeObject,
    hasOwn: typeof Object.hasOwn,
    segments: readonly (readonly string[])[],
    max: number,
  ) => Reduce;
  return build(
    walk,
    copy,
    nullPrototypeObject,
    Object.hasOwn,
    fields.map((field) => field.segments),
    MAX_PICK_DEPTH,
  );
}

/**
 * What `walk(object, segments, 0, depth)` answers for an object, as straight-line code: one
 * own-property read per segment, handing an array met on the way to `walk` (which maps over it).
 */
function readInline(segments: readonly string[], index: number): string {
  const [first = "", ...rest] = segments.map((segment) => JSON.stringify(segment));
  let code = `value = hasOwn(object, ${first}) ? object[${first}] : undefined;`;
  let closing = "";
  rest.forEach((segment, offset) => {
    const level = offset + 1;
    code += `\nif (value !== undefined) {\n if (Array.isArray(value)) value = walk(value, segments[${index}], ${level}, depth + ${level});\n else if (value !== null && typeof value === "object") {\n value = hasOwn(value, ${segment}) ? value[${segment}] : undefined;`;
    closing = `\n } else value = undefined;\n}${closing}`;
  });
  return code + closing;
}

/** The value at `segments` from `index` on; through an array it maps over the items. */
function walk(value: unknown, segments: readonly string[], index: number, depth: number): unknown {
  if (depth > MAX_PICK_DEPTH) throw new PickError();
  if (index === segments.length) return value;
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    for (const item of value) {
      const found = walk(item, segments, index, depth + 1);
      if (found !== undefined) out.push(found);
    }
    return out;
  }
  if (!isObject(value)) return undefined;
  const key = segments[index] as string;
  return Object.hasOwn(value, key) ? walk(value[key], segments, index + 1, depth + 1) : undefined;
}

/** A copy on null-prototype objects, refused past the depth bound. */
function copy(value: unknown, depth: number): unknown {
  if (value === null || typeof value !== "object") return value;
  if (depth > MAX_PICK_DEPTH) throw new PickError();
  if (Array.isArray(value)) return value.map((item) => copy(item, depth + 1));
  const out = nullPrototypeObject();
  for (const key of Object.keys(value)) out[key] = copy((value as PlainObject)[key], depth + 1);
  return out;
}
