import fc from "fast-check";

type Json = unknown;

/** Replaces, deletes or adds one value somewhere in the manifest tree. */
export function mutate(root: Json, pathChoices: number[], replacement: Json, action: number): Json {
  const copy = structuredClone(root) as Record<string, Json>;
  let node: Json = copy;
  for (const choice of pathChoices) {
    if (node === null || typeof node !== "object") break;
    const keys = Object.keys(node);
    if (keys.length === 0) break;
    const key = keys[choice % keys.length] as string;
    const child = (node as Record<string, Json>)[key];
    const isLast = child === null || typeof child !== "object" || choice % 3 === 0;
    if (isLast) {
      const container = node as Record<string, Json>;
      if (action === 0) delete container[key];
      else if (action === 1) container[key] = replacement;
      else container[`${key}_x`] = replacement;
      return copy;
    }
    node = child;
  }
  return copy;
}

export const anyJson = fc.oneof(
  fc.string(),
  fc.constantFrom("{", "..", "/{owner}", "https://127.0.0.1", "{title}", "write", "GET", "__proto__", "\u202e", "a\r\nb"),
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.string(), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 8 }), fc.string(), { maxKeys: 3 }),
);
