import { canonicalJson } from "@eleven-integrations/schema";

/**
 * `canonicalJson(value)` (RFC 8785), the same text, made mostly by the engine's
 * `JSON.stringify`. RFC 8785 differs from `JSON.stringify` only in key order (sorted
 * by UTF-16 code units); numbers and strings are written the same way. So a subtree
 * of plain JSON data whose objects already enumerate their keys in sorted order, as
 * one parsed from canonical text does, is handed to `JSON.stringify` whole; the rest
 * (unsorted keys, which include integer-like keys the engine enumerates first, and
 * anything that is not plain JSON data) is written here with sorted keys, or left to
 * `canonicalJson` itself, which also throws its errors. A test compares both.
 */
export function canonicalText(value: unknown): string {
  return canonicalParts(value).join("");
}

/**
 * {@link canonicalText} as the pieces it is made of, in order: for a large value, such
 * as a release's thousand manifests, encoding each piece where it goes costs a fraction
 * of joining them into one string first.
 */
export function canonicalParts(value: unknown): string[] {
  return partsUnlessStringifiable(value) ?? [JSON.stringify(value)];
}

/**
 * null when `JSON.stringify(value)` is already its canonical text; otherwise the
 * canonical text's pieces. Each node is visited once: a parent that has to sort writes
 * each stringifiable child with `JSON.stringify` and takes the others' pieces as made.
 */
function partsUnlessStringifiable(value: unknown): string[] | null {
  if (value === null) return null;
  switch (typeof value) {
    case "string":
    case "boolean":
      return null;
    case "number":
      return Number.isFinite(value) ? null : [canonicalJson(value)];
    case "object":
      return Array.isArray(value) ? arrayParts(value) : objectParts(value as Record<string, unknown>);
    default:
      return [canonicalJson(value)];
  }
}

function arrayParts(array: readonly unknown[]): string[] | null {
  let children: (string[] | null)[] | undefined;
  for (let index = 0; index < array.length; index += 1) {
    const parts = partsUnlessStringifiable(array[index]);
    if (parts !== null) {
      children ??= new Array<string[] | null>(array.length).fill(null);
      children[index] = parts;
    }
  }
  if (children === undefined && !hasToJson(array)) return null;
  const out = ["["];
  for (let index = 0; index < array.length; index += 1) {
    if (index > 0) out.push(",");
    append(out, children?.[index], array[index]);
  }
  out.push("]");
  return out;
}

function objectParts(record: Record<string, unknown>): string[] | null {
  const keys = Object.keys(record);
  const prototype: unknown = Object.getPrototypeOf(record);
  let sorted = (prototype === Object.prototype || prototype === null) && !hasToJson(record);
  let children: (string[] | null)[] | undefined;
  for (let index = 0; index < keys.length; index += 1) {
    const key = keys[index] as string;
    if (index > 0 && !((keys[index - 1] as string) < key)) sorted = false;
    const item = record[key];
    // An undefined property is left out by both serialisations.
    const parts = item === undefined ? null : partsUnlessStringifiable(item);
    if (parts !== null) {
      children ??= new Array<string[] | null>(keys.length).fill(null);
      children[index] = parts;
    }
  }
  if (sorted && children === undefined) return null;
  const order = keys.map((_, index) => index);
  if (!sorted) order.sort((a, b) => ((keys[a] as string) < (keys[b] as string) ? -1 : 1));
  const out = ["{"];
  let first = true;
  for (const index of order) {
    const item = record[keys[index] as string];
    if (item === undefined) continue;
    out.push(`${first ? "" : ","}${JSON.stringify(keys[index])}:`);
    first = false;
    append(out, children?.[index], item);
  }
  out.push("}");
  return out;
}

/** A child's pieces, or its `JSON.stringify` when it had none (it is stringifiable). */
function append(out: string[], parts: string[] | null | undefined, item: unknown): void {
  if (parts === null || parts === undefined) out.push(JSON.stringify(item));
  else for (const part of parts) out.push(part);
}

/** `JSON.stringify` calls a `toJSON` method; `canonicalJson` does not. */
function hasToJson(value: object): boolean {
  return typeof (value as { toJSON?: unknown }).toJSON === "function";
}
