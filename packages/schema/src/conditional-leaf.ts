// Zod-free: the loader compiles these, the schema checks them.

/**
 * A conditional body leaf: `{ "$when": { "arg": "visibility", "eq": "private" }, "value": ... }`
 * renders as `value` when the arg was given with exactly that value, and is dropped
 * (its key, or its array item) otherwise.
 */
export const WHEN_KEY = "$when";

export interface ConditionalLeaf {
  readonly when: { readonly arg: string; readonly eq: string };
  readonly value: unknown;
}

/** Whether a body node is written as a conditional leaf (it has a `$when` key; `conditionalLeafProblem` says if it is well formed). */
export function isConditionalLeaf(node: unknown): node is Record<string, unknown> {
  return node !== null && typeof node === "object" && !Array.isArray(node) && Object.hasOwn(node, WHEN_KEY);
}

/** The problem with a node written as a conditional leaf, or undefined. */
export function conditionalLeafProblem(node: Record<string, unknown>): string | undefined {
  const keys = Object.keys(node);
  if (keys.length !== 2 || !Object.hasOwn(node, "value")) return 'a conditional leaf has exactly two keys, "$when" and "value"';
  const when = node[WHEN_KEY];
  if (when === null || typeof when !== "object" || Array.isArray(when)) return '"$when" must be { "arg": "<arg name>", "eq": "<value>" }';
  const whenKeys = Object.keys(when);
  const { arg, eq } = when as Record<string, unknown>;
  if (whenKeys.length !== 2 || typeof arg !== "string" || typeof eq !== "string") return '"$when" must be { "arg": "<arg name>", "eq": "<value>" }';
  return undefined;
}

/** A well-formed conditional leaf's parts (after `conditionalLeafProblem` found none). */
export function conditionalLeaf(node: Record<string, unknown>): ConditionalLeaf {
  const when = node[WHEN_KEY] as { arg: string; eq: string };
  return { when: { arg: when.arg, eq: when.eq }, value: node.value };
}

/**
 * A list arg's items, each rendered through a template: `{ "$each": "attendees", "value": { "email": "{attendees}" } }`
 * renders as `[{ "email": "a@example.com" }, ...]`, one element per item, and inside `value` the list arg's
 * placeholder stands for the current item. Dropped when the list arg is not given.
 */
export const EACH_KEY = "$each";

export interface EachLeaf {
  readonly arg: string;
  readonly value: unknown;
}

/** Whether a body node is written as an each leaf (it has an `$each` key; `eachLeafProblem` says if it is well formed). */
export function isEachLeaf(node: unknown): node is Record<string, unknown> {
  return node !== null && typeof node === "object" && !Array.isArray(node) && Object.hasOwn(node, EACH_KEY);
}

/** The problem with a node written as an each leaf, or undefined. */
export function eachLeafProblem(node: Record<string, unknown>): string | undefined {
  if (Object.keys(node).length !== 2 || !Object.hasOwn(node, "value")) return 'an each leaf has exactly two keys, "$each" and "value"';
  if (typeof node[EACH_KEY] !== "string") return '"$each" must name a list arg ("attendees")';
  return undefined;
}

/** A well-formed each leaf's parts. */
export function eachLeaf(node: Record<string, unknown>): EachLeaf {
  return { arg: node[EACH_KEY] as string, value: node.value };
}
