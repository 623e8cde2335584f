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

/** Hop-by-hop headers (RFC 9110 7.6.1): they describe one connection, which the executor owns. */
export const HOP_BY_HOP_HEADERS: ReadonlySet<string> = new Set(["keep-alive", "te", "trailer", "upgrade"]);

export function headerNameProblem(name: string): string | undefined {
  if (!TOKEN.test(name)) return `"${name}" is not a valid header name`;
  const lower = name.toLowerCase();
  if (EXECUTOR_OWNED_HEADERS.has(lower) || lower.startsWith("proxy-") || HOP_BY_HOP_HEADERS.has(lower)) {
    return `"${name}" is set by the executor and may not be set by a manifest`;
  }
  return undefined;
}

/** Whether a header value (a filled template) holds a control character: CR, LF, NUL, DEL or any other C0/C1 control but tab. */
export function hasControlCharacter(value: string): boolean {
  return /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u2028\u2029]/.test(value);
}

export function headerValueProblem(value: string): string | undefined {
  if (!FIELD_VALUE.test(value)) return "must not hold CR, LF or other control characters";
  if (value !== value.trim()) return "must not start or end with whitespace";
  return undefined;
}
