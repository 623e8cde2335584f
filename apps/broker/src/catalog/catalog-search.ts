import type { Access } from "@eleven-integrations/schema";
import { createSearchIndex, MAX_QUERY_LENGTH, MAX_SEARCH_LIMIT, type SearchHit, type SearchIndex } from "@eleven-integrations/search";
import { BrokerError } from "../http/broker-error.js";
import type { ServedCatalog } from "./catalog.js";
import { single } from "../http/query.js";

/** A hit as the broker serves it: an OAuth integration (or its op) says whether this broker can connect it. */
export type ServedSearchHit = SearchHit & { oauth_available?: boolean };

/** What `GET /registry/search` asked for, checked. */
export interface CatalogSearchQuery {
  q: string;
  category: string | null;
  access: Access | null;
  limit: number;
}

/** The body of `GET /registry/search`. */
export interface CatalogSearchAnswer {
  schema: 1;
  hash: string;
  query: { q: string; category: string | null; access: Access | null };
  results: ServedSearchHit[];
}

export interface CatalogSearch {
  /** The categories with their integration counts, sorted. */
  categories(): [string, number][];
  search(query: CatalogSearchQuery): CatalogSearchAnswer;
  /** Builds the index now (the broker's readiness includes it) rather than on the first search. */
  build(): void;
}

const SEARCH_PARAMETERS = new Set(["q", "category", "access", "limit"]);
const DEFAULT_LIMIT = 20;

/** The one search index of this broker, built from the catalog it serves. */
export function createCatalogSearch(catalog: ServedCatalog): CatalogSearch {
  const index: SearchIndex = createSearchIndex(catalog.integrations);
  const availability = new Map(catalog.integrations.map((entry) => [entry.id, entry.oauth_available]));
  return {
    categories: () => index.categories(),
    build: () => index.build(),
    search(query) {
      const hits = index.search(query.q, { category: query.category ?? undefined, access: query.access ?? undefined, limit: query.limit });
      const results = hits.map((hit): ServedSearchHit => {
        const available = availability.get(hit.integration);
        return available === undefined ? hit : { ...hit, oauth_available: available };
      });
      return { schema: 1, hash: catalog.hash, query: { q: query.q, category: query.category, access: query.access }, results };
    },
  };
}

/**
 * Checks the query string of `GET /registry/search`: each parameter at most
 * once, no unknown one, `q` at most 200 characters, `access` read or write,
 * `limit` 1 to 500. Anything else is `invalid_query`, naming the parameter.
 */
export function parseSearchQuery(query: URLSearchParams): CatalogSearchQuery {
  for (const name of new Set(query.keys())) {
    if (!SEARCH_PARAMETERS.has(name)) throw new BrokerError("invalid_query", `unknown parameter "${name.slice(0, 40)}": use q, category, access and limit`);
    if (single(query, name) === undefined) throw new BrokerError("invalid_query", `"${name}" is given more than once`);
  }
  const q = single(query, "q") ?? "";
  if ([...q].length > MAX_QUERY_LENGTH) throw new BrokerError("invalid_query", `"q" is longer than ${MAX_QUERY_LENGTH} characters`);
  const category = single(query, "category") ?? "";
  const access = single(query, "access") ?? "";
  if (access !== "" && access !== "read" && access !== "write") throw new BrokerError("invalid_query", '"access" must be read or write');
  const limitText = single(query, "limit");
  let limit = DEFAULT_LIMIT;
  if (limitText !== undefined) {
    limit = /^[0-9]{1,4}$/.test(limitText) ? Number(limitText) : 0;
    if (limit < 1 || limit > MAX_SEARCH_LIMIT) throw new BrokerError("invalid_query", `"limit" must be a whole number from 1 to ${MAX_SEARCH_LIMIT}`);
  }
  return { q, category: category === "" ? null : category, access: access === "" ? null : access, limit };
}
