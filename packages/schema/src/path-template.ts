import { wholePlaceholder } from "./placeholders.js";

/**
 * One path segment: literal text, or one arg filling the segment, optionally followed by a
 * literal `suffix` that starts with `:` or `.` (`{spreadsheet_id}:batchUpdate`, `{sid}.json`).
 */
export type PathSegment = { kind: "literal"; text: string } | { kind: "arg"; name: string; suffix?: string };
export interface QueryPair {
  key: string;
  value: { kind: "literal"; text: string } | { kind: "arg"; name: string };
}
export interface PathTemplate {
  segments: PathSegment[];
  query: QueryPair[];
}
export type PathTemplateResult = { ok: true; template: PathTemplate } | { ok: false; problems: string[] };

// RFC 3986 pchar, with percent-encodings checked separately.
const PCHAR = /^[A-Za-z0-9._~!$&'()*+,;=:@%-]*$/;
const QUERY_CHAR = /^[A-Za-z0-9._~!$'()*+,;:@%/?-]*$/;
const PERCENT = /%(?![0-9A-Fa-f]{2})/;
/** A placeholder followed, in its segment, by a literal suffix that starts with `:` or `.`. */
const SUFFIXED = /^\{([a-z][a-z0-9_]*)\}([:.][A-Za-z0-9._~!$&'()*+,;=:@-]+)$/;

const LITERAL_SEGMENT = "(?!\\.\\.?(?:/|\\?|$))[A-Za-z0-9._~!$&'()*+,;=:@-]+";
const ARG_SEGMENT = "\\{[a-z][a-z0-9_]*\\}(?:[:.][A-Za-z0-9._~!$&'()*+,;=:@-]+)?";
const QUERY_PAIR = "[A-Za-z0-9._~!$'()*+,;:@/?-]+=(?:\\{[a-z][a-z0-9_]*\\}|[A-Za-z0-9._~!$'()*+,;:@/?-]*)";
/**
 * Paths `parse` accepts, in the usual spellings (no `%`, no braces but whole placeholders):
 * one test that settles most op paths without building a template.
 */
const PLAIN_PATH = new RegExp(`^(?=/)(?:/(?:${ARG_SEGMENT}|${LITERAL_SEGMENT}))*/?(?:\\?${QUERY_PAIR}(?:&${QUERY_PAIR})*)?$`);

const NO_PROBLEMS: readonly string[] = Object.freeze([]);

/** Every problem of an op path template, none when `parsePathTemplate` accepts it. */
export function pathTemplateProblems(path: string): readonly string[] {
  if (PLAIN_PATH.test(path)) return NO_PROBLEMS;
  const result = parsePathTemplate(path);
  return result.ok ? NO_PROBLEMS : result.problems;
}

/**
 * Each placeholder of a path that `pathTemplateProblems` finds none in, in order, and whether
 * it stands in the query: there, every `{` opens a whole placeholder (a segment's, or a query value's).
 */
export function forEachPathPlaceholder(path: string, visit: (name: string, inQuery: boolean) => void): void {
  const queryStart = path.indexOf("?");
  for (let open = path.indexOf("{"); open !== -1; open = path.indexOf("{", open + 1)) {
    visit(pathPlaceholderAt(path, open), queryStart !== -1 && open > queryStart);
  }
}

/** The name of the placeholder whose `{` is at `open`, in a path that `pathTemplateProblems` finds none in. */
export function pathPlaceholderAt(path: string, open: number): string {
  return path.slice(open + 1, path.indexOf("}", open));
}

// The schema parses each op's path twice in a row (the field, then the op's cross-field rules): the second is the first's answer.
let lastPath: string | undefined;
let lastResult: PathTemplateResult | undefined;

/** Parses an op path (`/repos/{owner}/{repo}/issues?state={state}`) into segments and query pairs. Treat the answer as read-only: the same path may get the same object. */
export function parsePathTemplate(path: string): PathTemplateResult {
  if (path === lastPath && lastResult !== undefined) return lastResult;
  lastResult = parse(path);
  lastPath = path;
  return lastResult;
}

function parse(path: string): PathTemplateResult {
  const problems: string[] = [];
  if (!path.startsWith("/") || path.startsWith("//")) problems.push('must start with a single "/"');
  if (path.includes("#")) problems.push('must not hold "#"');
  if (path.includes("\\")) problems.push('must not hold "\\"');
  if (problems.length > 0) return { ok: false, problems };

  const queryStart = path.indexOf("?");
  const pathPart = queryStart === -1 ? path : path.slice(0, queryStart);
  const queryPart = queryStart === -1 ? undefined : path.slice(queryStart + 1);

  const segments: PathSegment[] = [];
  const rawSegments = pathPart.slice(1).split("/");
  rawSegments.forEach((raw, index) => {
    const arg = wholePlaceholder(raw);
    if (arg !== undefined) {
      segments.push({ kind: "arg", name: arg });
      return;
    }
    const suffixed = SUFFIXED.exec(raw);
    if (suffixed !== null) {
      segments.push({ kind: "arg", name: suffixed[1] as string, suffix: suffixed[2] as string });
      return;
    }
    if (raw.includes("{") || raw.includes("}")) {
      problems.push(
        `segment "${raw}": a placeholder must be a whole segment (or be followed by a literal suffix that starts with ":" or "."), and braces are not allowed otherwise`,
      );
    } else if (raw === "" && index < rawSegments.length - 1) {
      problems.push("must not hold an empty segment");
    } else if (!PCHAR.test(raw) || PERCENT.test(raw)) {
      problems.push(`segment "${raw}" holds characters a URL path does not allow`);
    } else if (isDotSegment(raw)) {
      problems.push(`segment "${raw}" is a dot segment`);
    } else {
      segments.push({ kind: "literal", text: raw }); // "" only last: a trailing slash
    }
  });

  const query: QueryPair[] = [];
  if (queryPart !== undefined) {
    for (const pair of queryPart.split("&")) {
      const equals = pair.indexOf("=");
      if (equals <= 0) {
        problems.push(`query pair "${pair}" must be key=value`);
        continue;
      }
      const key = pair.slice(0, equals);
      const value = pair.slice(equals + 1);
      if (!QUERY_CHAR.test(key) || PERCENT.test(key) || key.includes("=")) {
        problems.push(`query key "${key}" must be literal URL text`);
        continue;
      }
      const arg = wholePlaceholder(value);
      if (arg !== undefined) {
        query.push({ key, value: { kind: "arg", name: arg } });
      } else if (value.includes("{") || value.includes("}")) {
        problems.push(`query value "${value}": a placeholder must be the whole value`);
      } else if (!QUERY_CHAR.test(value) || PERCENT.test(value) || value.includes("=")) {
        problems.push(`query value "${value}" must be literal URL text`);
      } else {
        query.push({ key, value: { kind: "literal", text: value } });
      }
    }
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, template: { segments, query } };
}

function isDotSegment(segment: string): boolean {
  let decoded: string;
  try {
    decoded = decodeURIComponent(segment);
  } catch {
    return false;
  }
  return decoded === "." || decoded === "..";
}
