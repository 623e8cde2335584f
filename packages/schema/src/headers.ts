const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
// Visible ASCII, space, tab and obs-text; never CR, LF, NUL or other controls.
const FIELD_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

/** Headers the executor sets itself; a manifest may not set them. */
export const EXECUTOR_OWNED_HEADERS: ReadonlySet<string> = new Set([
  "authorization",
  "host",
  "content-length",
  "transfer-encoding",
  "connection",
  "cookie",
  "accept-encoding",
  "content-type",
]);

export function headerNameProblem(name: string): string | undefined {
  if (!TOKEN.test(name)) return `"${name}" is not a valid header name`;
  const lower = name.toLowerCase();
  if (EXECUTOR_OWNED_HEADERS.has(lower) || lower.startsWith("proxy-")) {
    return `"${name}" is set by the executor and may not be set by a manifest`;
  }
  return undefined;
}

export function headerValueProblem(value: string): string | undefined {
  if (!FIELD_VALUE.test(value)) return "must not hold CR, LF or other control characters";
  if (value !== value.trim()) return "must not start or end with whitespace";
  return undefined;
}
