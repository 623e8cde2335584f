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
  return canonicalUnlessStringifiable(value) ?? JSON.stringify(value);
}

/**
 * null when `JSON.stringify(value)` is already its canonical text; otherwise the
 * canonical text. Each node is visited once: a parent that has to sort writes each
 * stringifiable child with `JSON.stringify` and takes the others' text as made.
 */
function canonicalUnlessStringifiable(value: unknown): string | null {
  if (value === null) return null;
  switch (typeof value) {
    case "string":
    case "boolean":
      return null;
    case "number":
      return Number.isFinite(value) ? null : canonicalJson(value);
    case "object":
      return Array.isArray(value) ? arrayText(value) : objectText(value as Record<string, unknown>);
    default:
      return canonicalJson(value);
  }
}

function arrayText(array: readonly unknown[]): string | null {
  let texts: (string | null)[] | undefined;
  for (let index = 0; index < array.length; index += 1) {
    const text = canonicalUnlessStringifiable(array[index]);
    if (text !== null) {
      texts ??= new Array<string | null>(array.length).fill(null);
      texts[index] = text;
    }
  }
  if (texts === undefined && !hasToJson(array)) return null;
  let out = "[";
  for (let index = 0; index < array.length; index += 1) {
    out += (index === 0 ? "" : ",") + (texts?.[index] ?? JSON.stringify(array[index]));
  }
  return `${out}]`;
}

function objectText(record: Record<string, unknown>): string | null {
  const keys = Object.keys(record);
  const prototype: unknown = Object.getPrototypeOf(record);
  let sorted = (prototype === Object.prototype || prototype === null) && !hasToJson(record);
  let texts: (string | null)[] | undefined;
  for (let index = 0; index < keys.length; index += 1) {
    const key = keys[index] as string;
    if (index > 0 && !((keys[index - 1] as string) < key)) sorted = false;
    const item = record[key];
    // An undefined property is left out by both serialisations.
    const text = item === undefined ? null : canonicalUnlessStringifiable(item);
    if (text !== null) {
      texts ??= new Array<string | null>(keys.length).fill(null);
      texts[index] = text;
    }
  }
  if (sorted && texts === undefined) return null;
  const order = keys.map((_, index) => index);
  if (!sorted) order.sort((a, b) => ((keys[a] as string) < (keys[b] as string) ? -1 : 1));
  let out = "{";
  for (const index of order) {
    const item = record[keys[index] as string];
    if (item === undefined) continue;
    out += `${out.length === 1 ? "" : ","}${JSON.stringify(keys[index])}:${texts?.[index] ?? JSON.stringify(item)}`;
  }
  return `${out}}`;
}

/** `JSON.stringify` calls a `toJSON` method; `canonicalJson` does not. */
function hasToJson(value: object): boolean {
  return typeof (value as { toJSON?: unknown }).toJSON === "function";
}
