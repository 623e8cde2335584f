import { pathValueProblem } from "./url-value.js";

/**
 * The problem with a `type: "path"` value, or undefined: segments joined by single `/`, no
 * leading or trailing slash, no empty, `.` or `..` segment, and each segment a value
 * `pathValueProblem` accepts (so `%2e%2e`, full-width dots, `\` and controls are refused in
 * every spelling a server might decode). Each segment is then percent-escaped on its own.
 */
export function pathArgProblem(value: string): string | undefined {
  if (value === "") return "must not be empty in a path";
  if (value.startsWith("/") || value.endsWith("/")) return 'must not start or end with "/"';
  const segments = value.split("/");
  for (let index = 0; index < segments.length; index += 1) {
    const segment = segments[index] as string;
    if (segment === "") return 'must not hold an empty segment ("//")';
    const problem = pathValueProblem(segment);
    if (problem !== undefined) return `segment ${index + 1} ${problem}`;
  }
  return undefined;
}

/** The segments of a checked path value. */
export function pathArgSegments(value: string): string[] {
  return value.split("/");
}
