const SEGMENT = /^[A-Za-z0-9_-]+$/;
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
