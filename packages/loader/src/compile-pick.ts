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
  const reduce = (object: PlainObject, depth: number): PlainObject => {
    const out = nullPrototypeObject();
    for (const field of fields) {
      const value = walk(object, field.segments, 0, depth);
      if (value !== undefined) out[field.key] = copy(value, depth + 1);
    }
    return out;
  };
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
