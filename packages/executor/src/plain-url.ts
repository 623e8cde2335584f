/**
 * An origin the URL parser serialises as it is written: https, lowercase LDH labels, the last
 * starting with a letter (so never read as an IPv4 address), no `xn--` label (IDNA would check
 * it), no port (`:443` would be dropped).
 */
const PLAIN_ORIGIN = /^https:\/\/(?:(?!xn--)[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)*(?!xn--)[a-z](?:[a-z0-9-]*[a-z0-9])?$/;
/** A path the parser keeps as written: RFC 3986 path characters only (no `\`, `?`, `#`, space or control). */
const PLAIN_PATH = /^(?:\/[A-Za-z0-9\-._~!$&'()*+,;=:@%]*)+$/;
/** A segment the parser would resolve away: `.` or `..`, either dot also spelled `%2e`. */
const DOT_SEGMENT = /\/(?:\.|%2e){1,2}(?=\/|$)/i;
/** A query in RFC 3986 query characters but `'`, which the parser leaves as they are (no `#`, no quote, no space). */
const PLAIN_QUERY = /^[A-Za-z0-9\-._~!$&()*+,;=:@\/?%]+$/;

/**
 * Whether `origin + pathname` (and `?query`, when the query is not empty) is a URL the WHATWG
 * parser reads back exactly as written: the same origin, no user info, this pathname, this
 * query and no fragment. False means "ask the parser", not that it would refuse.
 */
export function readsAsWritten(origin: string, pathname: string, query: string): boolean {
  return PLAIN_ORIGIN.test(origin) && PLAIN_PATH.test(pathname) && !DOT_SEGMENT.test(pathname) && (query === "" || PLAIN_QUERY.test(query));
}
