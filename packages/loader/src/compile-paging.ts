import type { Paging } from "@eleven-integrations/schema";
import { compileLookup, scalarText } from "./compile-lookup.js";

/** A list op's paging, compiled once at load. */
export interface CompiledPaging {
  /** The op's arg that carries the cursor. */
  readonly arg: string;
  /** For `link` paging: the query key taken from the Link rel="next" URL. */
  readonly linkQueryKey: string | undefined;
  /** For `link` paging: other paths (`link_paths`, whole-path patterns) a next link may name besides the request's. */
  readonly linkPaths: readonly RegExp[];
  /** For `body` and `last_item` paging: the next cursor in a parsed answer, or undefined when there is no more. */
  readonly cursorFromBody: ((body: unknown) => string | undefined) | undefined;
  /** The declaration as written. */
  readonly declaration: Paging;
}

export function compilePaging(paging: Paging): CompiledPaging {
  const compiled = (cursorFromBody: CompiledPaging["cursorFromBody"], linkQueryKey?: string, linkPaths: readonly RegExp[] = []): CompiledPaging =>
    Object.freeze({ arg: paging.arg, linkQueryKey, linkPaths: Object.freeze(linkPaths), cursorFromBody, declaration: paging });
  switch (paging.from) {
    case "link":
      return compiled(undefined, paging.query_key, (paging.link_paths ?? []).map(compileLinkPath));
    case "body": {
      const cursor = compileLookup(paging.cursor);
      const more = paging.more === undefined ? undefined : compileLookup(paging.more);
      return compiled((body) => {
        if (more !== undefined && more(body) !== true) return undefined;
        const text = scalarText(cursor(body));
        return text === undefined || text === "" ? undefined : text;
      });
    }
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

/** A `link_paths` entry as a whole-path pattern: each `*` segment is exactly one non-empty segment. */
function compileLinkPath(path: string): RegExp {
  const segments = path
    .slice(1)
    .split("/")
    .map((segment) => (segment === "*" ? "[A-Za-z0-9._~-]+" : segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")));
  return new RegExp(`^/${segments.join("/")}$`);
}
