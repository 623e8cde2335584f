import type { BodyArgs } from "./compile-body.js";
import type { Paging } from "@eleven-integrations/schema";
import { compileLookup, scalarText } from "./compile-lookup.js";

/** A list op's paging, compiled once at load. */
export interface CompiledPaging {
  /** The op's arg that carries the cursor; undefined when `nextOp` takes it, or for `next_path`. */
  readonly arg: string | undefined;
  /** Another read of the manifest that runs the next page with the cursor in its own `page.arg` (`page.next_op`). */
  readonly nextOp: string | undefined;
  /** `next_path` paging: the cursor is a path (or same-origin URL) under the base, fetched as it is. */
  readonly nextPath: boolean;
  /** For `link` paging: the query key taken from the Link rel="next" URL. */
  readonly linkQueryKey: string | undefined;
  /** For `link` paging: other paths (`link_paths`, whole-path patterns) a next link may name besides the request's. */
  readonly linkPaths: readonly RegExp[];
  /** For `body`, `last_item` and `next_path` paging: the next cursor (or path) in a parsed answer, or undefined when there is no more. */
  readonly cursorFromBody: ((body: unknown) => string | undefined) | undefined;
  /**
   * For `offset` and `page` paging: the next offset or page number, from the answer and the
   * args the request was sent with, or undefined when the stop rule says there is no more.
   */
  readonly cursorFromCount: ((body: unknown, args: BodyArgs) => string | undefined) | undefined;
  /** The declaration as written. */
  readonly declaration: Paging;
}

export function compilePaging(paging: Paging): CompiledPaging {
  const nextPath = paging.from === "next_path";
  const compiled = (
    cursorFromBody: CompiledPaging["cursorFromBody"],
    linkQueryKey?: string,
    linkPaths: readonly RegExp[] = [],
    cursorFromCount?: CompiledPaging["cursorFromCount"],
  ): CompiledPaging =>
    Object.freeze({
      arg: nextPath ? undefined : paging.arg,
      nextOp: "next_op" in paging ? paging.next_op : undefined,
      nextPath,
      linkQueryKey,
      linkPaths: Object.freeze(linkPaths),
      cursorFromBody,
      cursorFromCount,
      declaration: paging,
    });
  switch (paging.from) {
    case "link":
      return compiled(undefined, paging.query_key, (paging.link_paths ?? []).map(compileLinkPath));
    case "body":
    case "next_path": {
      const cursor = paging.from === "body" ? compileLookup(paging.cursor) : nextPathLookup(paging);
      const more = paging.more === undefined ? undefined : compileLookup(paging.more);
      return compiled((body) => {
        if (more !== undefined && more(body) !== true) return undefined;
        const text = scalarText(cursor(body));
        return text === undefined || text === "" ? undefined : text;
      });
    }
    case "offset":
    case "page":
      return compiled(undefined, undefined, [], compileCounted(paging));
    case "last_item": {
      const items = paging.items === undefined ? (body: unknown) => body : compileLookup(paging.items);
      const key = compileLookup(paging.key);
      const more = compileLookup(paging.more);
      return compiled((body) => {
        if (more(body) !== true) return undefined;
        const list = items(body);
        if (!Array.isArray(list) || list.length === 0) return undefined;
        const text = scalarText(key(list[list.length - 1]));
        return text === undefined || text === "" ? undefined : text;
      });
    }
  }
}

/** Where a `next_path` op's next path is: at its dot-path, or under its top-level key as written (an own property). */
function nextPathLookup(paging: Extract<Paging, { from: "next_path" }>): (body: unknown) => unknown {
  const key = paging.top_key;
  if (key === undefined) return compileLookup(paging.path as string);
  return (body) =>
    body !== null && typeof body === "object" && !Array.isArray(body) && Object.hasOwn(body, key) ? (body as Record<string, unknown>)[key] : undefined;
}

/** A `link_paths` entry as a whole-path pattern: each `*` segment is exactly one non-empty segment. */
function compileLinkPath(path: string): RegExp {
  const segments = path
    .slice(1)
    .split("/")
    .map((segment) => (segment === "*" ? "[A-Za-z0-9._~-]+" : segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")));
  return new RegExp(`^/${segments.join("/")}$`);
}

/** The largest offset or page number handed on: past it, paging stops rather than lose precision. */
const MAX_COUNT = Number.MAX_SAFE_INTEGER;

/**
 * Offset paging: the next offset is the one sent (0 when none) plus the items returned. Page
 * paging: the next page is the one sent (`first` when none) plus one. Both stop on an answer
 * without an item list or with an empty one, on fewer items than the limit sent, when `more`
 * is not `true`, when `last` is `true`, when the items seen reach `total`, or when the pages
 * sent reach `total_pages`.
 */
function compileCounted(paging: Extract<Paging, { from: "offset" | "page" }>): (body: unknown, args: BodyArgs) => string | undefined {
  const items = paging.items === undefined ? (body: unknown) => body : compileLookup(paging.items);
  const more = paging.more === undefined ? undefined : compileLookup(paging.more);
  const total = paging.total === undefined ? undefined : compileLookup(paging.total);
  const last = paging.last === undefined ? undefined : compileLookup(paging.last);
  const totalPages = paging.from === "page" && paging.total_pages !== undefined ? compileLookup(paging.total_pages) : undefined;
  const byPage = paging.from === "page";
  const first = paging.from === "page" ? (paging.first ?? 1) : 0;
  return (body, args) => {
    const list = items(body);
    if (!Array.isArray(list) || list.length === 0) return undefined;
    if (more !== undefined && more(body) !== true) return undefined;
    if (last !== undefined && last(body) === true) return undefined;
    const limit = paging.limit ?? countArg(args, paging.limit_arg);
    if (limit !== undefined && list.length < limit) return undefined;
    const sent = countArg(args, paging.arg) ?? first;
    const next = byPage ? sent + 1 : sent + list.length;
    if (next > MAX_COUNT) return undefined;
    if (totalPages !== undefined) {
      const pages = totalPages(body);
      if (typeof pages === "number" && sent - first + 1 >= pages) return undefined;
    }
    if (total !== undefined) {
      const count = total(body);
      // With page numbers, the items seen so far are the pages sent times the limit.
      const seen = byPage ? (limit === undefined ? undefined : (next - first) * limit) : next;
      if (typeof count === "number" && seen !== undefined && seen >= count) return undefined;
    }
    return String(next);
  };
}

/** A count arg's value as a whole number, or undefined when it was not given (or is not one). */
function countArg(args: BodyArgs, name: string | undefined): number | undefined {
  if (name === undefined || !Object.hasOwn(args, name)) return undefined;
  const value = args[name];
  if (typeof value !== "string") return undefined;
  return /^\d{1,15}$/.test(value) ? Number(value) : undefined;
}
