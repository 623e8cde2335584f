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
  const walk = (value: unknown, index: number): unknown => {
    if (index === segments.length) return value;
    const segment = segments[index] as string;
    if (Array.isArray(value)) {
      if (/^(?:0|[1-9][0-9]{0,8})$/.test(segment)) return walk(value[Number(segment)], index + 1);
      const scanned = Math.min(value.length, MAX_SCANNED_ITEMS);
      for (let item = 0; item < scanned; item += 1) {
        const found = walk(value[item], index);
        if (found !== undefined) return found;
      }
      return undefined;
    }
    if (value === null || typeof value !== "object" || !Object.hasOwn(value, segment)) return undefined;
    return walk((value as Record<string, unknown>)[segment], index + 1);
  };
  return (body) => walk(body, 0);
}

/** A scalar an answer gives as an identifier or a cursor: a string as it is, a finite number as its text. */
export function scalarText(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  return undefined;
}
