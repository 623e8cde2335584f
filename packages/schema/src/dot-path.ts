const SEGMENT = /^[A-Za-z0-9_-]+$/;
const ARRAY_INDEX = /^(?:0|[1-9][0-9]{0,8})$/;
const FORBIDDEN_SEGMENTS = new Set(["__proto__", "constructor", "prototype"]);

// One test for the common, well-formed path; the loop below only runs to name a problem.
const WELL_FORMED = /^[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*$/;
const HAS_FORBIDDEN = /(?:^|\.)(?:__proto__|constructor|prototype)(?:\.|$)/;

/** The problem with a `pick` dot-path, or undefined when it is well-formed. */
export function dotPathProblem(path: string): string | undefined {
  if (path.length <= 256 && WELL_FORMED.test(path) && !HAS_FORBIDDEN.test(path)) return undefined;
  if (path.length === 0) return "must not be empty";
  if (path.length > 256) return "must be at most 256 characters";
  for (const segment of path.split(".")) {
    if (segment.length === 0) return `"${path}" has an empty segment`;
    if (!SEGMENT.test(segment)) return `"${path}": segment "${segment}" may hold only letters, digits, "_" and "-"`;
    if (FORBIDDEN_SEGMENTS.has(segment)) return `"${path}": segment "${segment}" is not allowed`;
  }
  return undefined;
}

/**
 * The value at a dot-path (split into `segments`) of a parsed JSON value, reading own
 * properties only, never through the prototype chain. Through an array,
 * `arrays: "first"` lets a numeric segment index it and any other segment try its
 * items in order (at most `maxScanned`, default 100) for the first value found, so
 * `errors.message` reads the first error's message; `arrays: "stop"` (the default)
 * finds nothing inside an array. The path's length bounds the walk.
 */
export function valueAtDotPath(value: unknown, segments: readonly string[], options: { arrays?: "stop" | "first"; maxScanned?: number } = {}): unknown {
  return walk(value, segments, 0, options.arrays === "first" ? (options.maxScanned ?? 100) : -1);
}

/** `scan` is how many items of an array to try, or -1 to find nothing inside arrays. */
function walk(current: unknown, segments: readonly string[], index: number, scan: number): unknown {
  if (index === segments.length) return current;
  const segment = segments[index] as string;
  if (Array.isArray(current)) {
    if (scan < 0) return undefined;
    if (ARRAY_INDEX.test(segment)) return walk(current[Number(segment)], segments, index + 1, scan);
    const scanned = Math.min(current.length, scan);
    for (let item = 0; item < scanned; item += 1) {
      const found = walk(current[item], segments, index, scan);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (current === null || typeof current !== "object" || !Object.hasOwn(current, segment)) return undefined;
  return walk((current as Record<string, unknown>)[segment], segments, index + 1, scan);
}
