import { valueAtDotPath } from "@eleven-integrations/schema";

/** How many items of an array a lookup scans for the first match. */
const MAX_SCANNED_ITEMS = 100;

/** Reads one value from a parsed answer. */
export type Lookup = (body: unknown) => unknown;

/**
 * Compiles a dot-path into a lookup of the FIRST value found there: own properties only;
 * through an array, a numeric segment indexes it and any other segment tries its items in
 * order (the first 100), so `errors.message` reads the first GraphQL error's message.
 * The path's length bounds the walk, so no answer can make it deep.
 */
export function compileLookup(path: string): Lookup {
  const segments = path.split(".");
  return (body) => valueAtDotPath(body, segments, { arrays: "first", maxScanned: MAX_SCANNED_ITEMS });
}

/** A scalar an answer gives as an identifier or a cursor: a string as it is, a finite number as its text. */
export function scalarText(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  return undefined;
}
