import type { ResolvedBase } from "@eleven-integrations/loader";
import { MAX_URL_BYTES } from "./build-url.js";

/** RFC 3986 path and query characters, percent-encodings checked apart; no `#`, no `\`, no space. */
const URL_TEXT = /^[A-Za-z0-9\-._~!$&'()*+,;=:@%/?]*$/;
const BAD_PERCENT = /%(?![0-9A-Fa-f]{2})/;

export type NextPathResult = { readonly ok: true; readonly path: string } | { readonly ok: false; readonly message: string };

/**
 * A provider's next-page path (Salesforce `nextRecordsUrl`), or a URL on the base's own
 * origin, checked as strictly as a URL the executor builds: RFC 3986 text only, no `..`
 * or `.` segment in any spelling, no empty segment, no encoded separator, under the base's
 * path, on the base's origin with no user info, and at most 8 KiB in all. The path is sent
 * exactly as given, so it must already be what a URL parser makes of it.
 */
export function checkNextPath(value: unknown, base: ResolvedBase): NextPathResult {
  if (typeof value !== "string" || value === "") return refuse("is not a path");
  const relative = value.startsWith(`${base.origin}/`) ? value.slice(base.origin.length) : value;
  if (!relative.startsWith("/") || relative.startsWith("//")) return refuse("is not a path on the integration's origin");
  if (Buffer.byteLength(base.origin) + Buffer.byteLength(relative) > MAX_URL_BYTES) return refuse(`is longer than ${MAX_URL_BYTES} bytes`);
  if (!URL_TEXT.test(relative) || BAD_PERCENT.test(relative)) return refuse("holds characters a URL path may not hold");
  const query = relative.indexOf("?");
  const path = query === -1 ? relative : relative.slice(0, query);
  const segments = path.slice(1).split("/");
  for (const [index, segment] of segments.entries()) {
    if (segment === "" && index < segments.length - 1) return refuse("holds an empty segment");
    let decoded = segment;
    for (let round = 0; round < 3 && decoded.includes("%"); round += 1) {
      try {
        decoded = decodeURIComponent(decoded);
      } catch {
        return refuse("holds a malformed percent-encoding");
      }
    }
    const folded = decoded.normalize("NFKC");
    if (folded === "." || folded === ".." || decoded === "." || decoded === "..") return refuse("holds a dot segment");
    if (segment !== decoded && /[/\\]/.test(decoded)) return refuse("holds an encoded separator");
  }
  if (!path.startsWith(`${base.basePath}/`)) return refuse("is not under the integration's base path");
  let parsed: URL;
  try {
    parsed = new URL(relative, base.origin);
  } catch {
    return refuse("is not a valid URL path");
  }
  if (parsed.origin !== base.origin || parsed.username !== "" || parsed.password !== "" || `${parsed.pathname}${parsed.search}` !== relative) {
    return refuse("does not stay, as written, on the integration's origin");
  }
  return { ok: true, path: relative };
}

function refuse(message: string): NextPathResult {
  return { ok: false, message: `the next page's path ${message}` };
}
