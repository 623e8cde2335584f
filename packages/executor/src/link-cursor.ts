/** The longest `Link` header read; past it, no next page is taken from it. */
const MAX_LINK_HEADER = 16 * 1024;

/**
 * The cursor in a `Link` header's rel="next" URL: the value of `queryKey` only, and only
 * when that URL (resolved against the request's) has the request's origin and path (or
 * one of `otherPaths`, the manifest's `link_paths`).
 * A link elsewhere, to another path, or without the key gives no cursor.
 */
export function cursorFromLink(
  header: string | string[] | undefined,
  requestUrl: string,
  queryKey: string,
  otherPaths: readonly RegExp[] = [],
): string | undefined {
  const value = Array.isArray(header) ? header.join(", ") : header;
  if (value === undefined || value.length > MAX_LINK_HEADER) return undefined;
  const target = nextTarget(value);
  if (target === undefined) return undefined;
  const quick = sameUrlCursor(target, requestUrl, queryKey);
  if (quick !== NOT_PLAIN) return quick;
  let next: URL;
  let request: URL;
  try {
    request = new URL(requestUrl);
    next = new URL(target, request);
  } catch {
    return undefined;
  }
  if (next.origin !== request.origin || next.username !== "" || next.password !== "") return undefined;
  if (next.pathname !== request.pathname && !otherPaths.some((path) => path.test(next.pathname))) return undefined;
  const cursor = next.searchParams.get(queryKey);
  return cursor === null || cursor === "" ? undefined : cursor;
}

/** The answer of {@link sameUrlCursor} when the texts are not plain enough to read without a URL parser. */
const NOT_PLAIN = Symbol("not plain");
/** An origin a URL parser reads as written: lower-case host, no user info, an optional port. */
const PLAIN_ORIGIN = /^https:\/\/[a-z0-9.-]+(?::[0-9]{1,5})?$/;
/** A path a URL parser keeps as written (no percent-encoding, nothing it escapes); dot segments are checked apart. */
const PLAIN_PATH = /^(?:\/[A-Za-z0-9\-._~!$&'()*+,;=:@]*)+$/;
const DOT_SEGMENT = /\/\.{1,2}(?:\/|$)/;
/** A query whose names and values a URL parser and URLSearchParams keep as written: no `%`, `+`, `'` or `#`. */
const PLAIN_QUERY = /^[A-Za-z0-9\-._~!$()*,;:@/?=&]*$/;

/**
 * The common case without a URL parser: a link whose text starts with the request's own
 * origin and path, every part of both in characters a parser keeps as written. Then the
 * origin and path are the request's, and the cursor is the key's first value, as
 * URLSearchParams reads it. Anything else is NOT_PLAIN, for the parser to decide.
 */
function sameUrlCursor(target: string, requestUrl: string, queryKey: string): string | undefined | typeof NOT_PLAIN {
  const originEnd = requestUrl.indexOf("/", "https://".length);
  if (originEnd === -1 || !target.startsWith(requestUrl.slice(0, originEnd + 1))) return NOT_PLAIN;
  const origin = requestUrl.slice(0, originEnd);
  if (!PLAIN_ORIGIN.test(origin)) return NOT_PLAIN;
  const requestQuery = requestUrl.indexOf("?", originEnd);
  const requestPath = requestUrl.slice(originEnd, requestQuery === -1 ? requestUrl.length : requestQuery);
  const query = target.indexOf("?", originEnd);
  const path = target.slice(originEnd, query === -1 ? target.length : query);
  if (path !== requestPath || !PLAIN_PATH.test(path) || DOT_SEGMENT.test(path)) return NOT_PLAIN;
  if (query === -1) return undefined;
  const search = target.slice(query + 1);
  if (!PLAIN_QUERY.test(search)) return NOT_PLAIN;
  for (const pair of search.split("&")) {
    const equals = pair.indexOf("=");
    const name = equals === -1 ? pair : pair.slice(0, equals);
    if (name !== queryKey) continue;
    const cursor = equals === -1 ? "" : pair.slice(equals + 1);
    return cursor === "" ? undefined : cursor;
  }
  return undefined;
}

/** The target of the first link whose `rel` names `next` (RFC 8288), scanned in one pass. */
function nextTarget(header: string): string | undefined {
  let index = 0;
  while (index < header.length) {
    const open = header.indexOf("<", index);
    if (open === -1) return undefined;
    const close = header.indexOf(">", open + 1);
    if (close === -1) return undefined;
    const target = header.slice(open + 1, close);
    // Parameters run to the next "<" that starts another link (quoted values hold no "<" in practice).
    const nextOpen = header.indexOf("<", close + 1);
    const parameters = header.slice(close + 1, nextOpen === -1 ? header.length : nextOpen);
    if (relIsNext(parameters)) return leadsOn(parameters) ? target.trim() : undefined;
    index = nextOpen === -1 ? header.length : nextOpen;
  }
  return undefined;
}

/** A link's parameters as GitHub and most providers send its next link: `; rel="next"` and nothing else. */
const PLAIN_NEXT = /^ *; *rel="next" *,? *$/;

/** Whether a link's `rel` names `next`; the usual spelling is read without splitting the parameters. */
export function relIsNext(parameters: string): boolean {
  return PLAIN_NEXT.test(parameters) || relIsNextByParsing(parameters);
}

export function relIsNextByParsing(parameters: string): boolean {
  return parameterValue(parameters, "rel")?.toLowerCase().split(/\s+/).includes("next") === true;
}

/**
 * Whether a rel="next" link leads on. Sentry sends its rel="next" link on the last page too,
 * marked `results="false"` (https://docs.sentry.io/api/pagination/): that link leads to an
 * empty page, not a next one. The usual spelling has no other parameter to look for.
 */
export function leadsOn(parameters: string): boolean {
  return PLAIN_NEXT.test(parameters) || leadsOnByParsing(parameters);
}

export function leadsOnByParsing(parameters: string): boolean {
  return parameterValue(parameters, "results")?.toLowerCase() !== "false";
}

/** The value of a link's parameter `name` (quotes removed), or undefined. */
function parameterValue(parameters: string, name: string): string | undefined {
  for (const parameter of parameters.split(";")) {
    const equals = parameter.indexOf("=");
    if (equals === -1 || parameter.slice(0, equals).trim().toLowerCase() !== name) continue;
    return parameter
      .slice(equals + 1)
      .replace(/,\s*$/, "")
      .trim()
      .replace(/^"|"$/g, "");
  }
  return undefined;
}
