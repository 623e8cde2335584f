import type { CompiledOperation, ResolvedBase } from "@eleven-integrations/loader";
import type { ArgProblem } from "./arg-problem.js";
import type { ArgValues } from "./check-args.js";
import { encodeComponent } from "./encode-component.js";
import { pathArgProblem, pathArgSegments } from "./path-arg.js";
import { readsAsWritten } from "./plain-url.js";
import { pathValueProblem, queryValueProblem } from "./url-value.js";

/** The longest URL sent, origin included. */
export const MAX_URL_BYTES = 8 * 1024;

export type BuildUrlResult =
  | { readonly ok: true; readonly url: string; readonly path: string }
  | { readonly ok: false; readonly problems: readonly ArgProblem[] };

/**
 * Builds the request target from the compiled path: literal segments as written,
 * each arg as exactly one RFC 3986-encoded segment or query value. The result is
 * parsed back and must keep the base's origin and path prefix, unchanged. `base` is the
 * manifest's base resolved for the run's connection (the op's own for a fixed base).
 */
export function buildUrl(operation: CompiledOperation, args: ArgValues, base: ResolvedBase = operation): BuildUrlResult {
  const problems: ArgProblem[] = [];
  let pathname = base.basePath;
  for (const segment of operation.pathSegments) {
    if (segment.kind === "literal") {
      pathname += `/${segment.text}`;
      continue;
    }
    const given = args[segment.name];
    const value = typeof given === "string" ? given : "";
    if (operation.args.get(segment.name)?.type === "path") {
      // A path arg spans segments: each is checked and escaped on its own, so "/" stays a separator and nothing else does.
      const problem = pathArgProblem(value);
      if (problem !== undefined) problems.push({ arg: segment.name, message: problem });
      else for (const part of pathArgSegments(value)) pathname += `/${encodeComponent(part)}`;
      continue;
    }
    const problem = pathValueProblem(value, segment.suffix !== undefined);
    if (problem !== undefined) problems.push({ arg: segment.name, message: problem });
    else pathname += segment.suffix === undefined ? `/${encodeComponent(value)}` : `/${encodeComponent(value)}${segment.suffix}`;
  }
  const pairs: string[] = [];
  for (const pair of operation.query) {
    if (pair.value.kind === "literal") {
      pairs.push(`${pair.key}=${pair.value.text}`);
      continue;
    }
    const value = args[pair.value.name];
    if (value === undefined) continue;
    if (Array.isArray(value)) {
      // A list arg repeats its key, once per item, in order: `label=a&label=b`.
      for (const item of value) {
        const problem = queryValueProblem(item);
        if (problem !== undefined) problems.push({ arg: pair.value.name, message: problem });
        else pairs.push(`${pair.key}=${encodeComponent(item)}`);
      }
      continue;
    }
    if (typeof value !== "string") continue;
    const problem = queryValueProblem(value);
    if (problem !== undefined) problems.push({ arg: pair.value.name, message: problem });
    else pairs.push(`${pair.key}=${encodeComponent(value)}`);
  }
  if (problems.length > 0) return { ok: false, problems };

  const query = pairs.join("&");
  const path = pairs.length === 0 ? pathname : `${pathname}?${query}`;
  const url = base.origin + path;
  if (Buffer.byteLength(url) > MAX_URL_BYTES) {
    return { ok: false, problems: [{ arg: "", message: `the URL would be longer than ${MAX_URL_BYTES} bytes` }] };
  }
  if (!staysInsideBase(base, url, pathname, query, pairs.length > 0)) {
    return { ok: false, problems: [{ arg: "", message: "the URL would leave the integration's base" }] };
  }
  return { ok: true, url, path };
}

/**
 * Parsed back, the URL names the base's origin, and its path is the one built, under the base's
 * path. A URL in characters the parser keeps as written needs no parse to know that.
 */
function staysInsideBase(base: ResolvedBase, url: string, pathname: string, query: string, hasQuery: boolean): boolean {
  if (!pathname.startsWith(`${base.basePath}/`)) return false;
  if (readsAsWritten(base.origin, pathname, query)) return true;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  return (
    parsed.origin === base.origin &&
    parsed.pathname === pathname &&
    parsed.hash === "" &&
    parsed.username === "" &&
    parsed.password === "" &&
    (parsed.search !== "") === hasQuery
  );
}
