import type { SearchResult } from "minisearch";
import type { Access, Operation } from "@eleven-integrations/schema";
import { searchDocuments, type SearchableIntegration, type SearchDocument } from "./search-documents.js";
import { fuzziness, processTerm, queryTerms, tokenize } from "./search-terms.js";
import { buildMiniSearch } from "./build-mini-search.js";

/** An integration that matched. */
export interface IntegrationHit {
  kind: "integration";
  integration: string;
  name: string;
  category: string;
  auth: SearchableIntegration["auth"]["kind"];
  score: number;
}

/** An op that matched. */
export interface OperationHit {
  kind: "op";
  integration: string;
  name: string;
  category: string;
  auth: SearchableIntegration["auth"]["kind"];
  op: string;
  label: string;
  access: Access;
  destructive: boolean;
  score: number;
}

export type SearchHit = IntegrationHit | OperationHit;

export interface SearchOptions {
  /** Only this category (exact). */
  category?: string | undefined;
  /** Only ops of this access, and integrations that have one. */
  access?: Access | undefined;
  /** Only these integrations. */
  integrations?: readonly string[] | undefined;
  /** Only integrations, or only ops. */
  kind?: SearchHit["kind"] | undefined;
  /** At most this many hits (default 20, at most 500). */
  limit?: number | undefined;
}

export interface SearchIndex {
  /**
   * The hits for `query`, best first. Typo tolerant; an empty query lists
   * everything the filters let through in registry order (score 0).
   */
  search(query: string, options?: SearchOptions): SearchHit[];
  /** The categories, sorted, each with how many integrations it has. */
  categories(): [string, number][];
  /** How many documents (integrations plus ops) are indexed. */
  readonly size: number;
  /** Builds the index now, once, rather than on the first search: for a server whose readiness includes it. */
  build(): void;
}

const splitOnSpace = (text: string): string[] => text.split(" ");
const asIs = (term: string): string => term;

export const DEFAULT_SEARCH_LIMIT = 20;
export const MAX_SEARCH_LIMIT = 500;
/** A query longer than this is cut (characters). */
export const MAX_QUERY_LENGTH = 200;

/**
 * Field weights: a word in an integration's name or an op's label says most
 * about what a person looks for; an op's id next; its args and confirm line, or
 * an integration's list of op labels, least.
 */
const BOOST = { title: 3, label: 2.5, opName: 2, category: 1.5, description: 0.6 };

const INTEGRATION_BOOST = 1.6;

/** The indexed fields of a {@link SearchDocument}, in MiniSearch's field id order. */
export const SEARCH_FIELDS = ["title", "opName", "label", "description", "category"] as const;

/**
 * Builds the index once; searching is then in memory and synchronous. The same
 * index ranks the broker's `/registry/search`, the catalog page, the sidecar's
 * `/v1/search` and `integrations search`.
 */
export function createSearchIndex(integrations: readonly SearchableIntegration[]): SearchIndex {
  // Built on the first search (or build()), not here: a command that never searches pays nothing for it.
  let built: Built | undefined;
  const index = () => (built ??= buildIndex(integrations));
  return {
    get size() {
      return integrations.reduce((count, integration) => count + 1 + integration.ops.length, 0);
    },
    search: (query, options) => index().search(query, options),
    build: () => void index(),
    categories() {
      const counts = new Map<string, number>();
      for (const integration of integrations) counts.set(integration.category, (counts.get(integration.category) ?? 0) + 1);
      return [...counts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    },
  };
}

type Built = Pick<SearchIndex, "search">;

function buildIndex(integrations: readonly SearchableIntegration[]): Built {
  const documents = searchDocuments(integrations);
  // Documents are known to the index by their place in `documents` (their `position`): a number is
  // found and compared more cheaply than the `key` strings, and needs no map of its own.
  const at = (position: number) => documents[position] as SearchDocument;

  const miniSearch = buildMiniSearch<SearchDocument>(documents, {
    idField: "position",
    fields: [...SEARCH_FIELDS],
    tokenize,
    processTerm,
    searchOptions: {
      boost: BOOST,
      fuzzy: fuzziness,
      prefix: (term) => term.length >= 3,
      combineWith: "OR",
      // An integration's name also appears in each of its ops: asked for by name, the integration comes first.
      boostDocument: (position) => (at(position as number).kind === "integration" ? INTEGRATION_BOOST : 1),
    },
  });

  // Each integration's position, by its id and its name in lower case.
  const named = new Map<string, number>();
  documents.forEach((document, position) => {
    if (document.kind !== "integration") return;
    named.set(document.source.id.toLowerCase(), position);
    named.set(document.source.name.toLowerCase(), position);
  });

  const hit = (document: SearchDocument, score: number): SearchHit => {
    const integration = document.source;
    const rounded = Math.round(score * 1000) / 1000;
    if (document.kind === "integration") {
      return {
        kind: "integration",
        integration: integration.id,
        name: integration.name,
        category: integration.category,
        auth: integration.auth.kind,
        score: rounded,
      };
    }
    const operation = document.operation as Operation;
    return {
      kind: "op",
      integration: integration.id,
      name: integration.name,
      category: integration.category,
      auth: integration.auth.kind,
      op: operation.id,
      label: operation.label,
      access: operation.access,
      destructive: operation.destructive === true,
      score: rounded,
    };
  };

  const accepts = (options: SearchOptions) => {
    const allowed = options.integrations === undefined ? undefined : new Set(options.integrations);
    return (document: SearchDocument): boolean => {
      if (options.kind !== undefined && document.kind !== options.kind) return false;
      if (options.category !== undefined && document.category !== options.category) return false;
      if (allowed !== undefined && !allowed.has(document.integration)) return false;
      if (options.access !== undefined) {
        if (document.kind === "op") return document.operation?.access === options.access;
        return document.source.ops.some((operation) => operation.access === options.access);
      }
      return true;
    };
  };

  return {
    search(query, options = {}) {
      const limit = Math.min(Math.max(1, Math.floor(options.limit ?? DEFAULT_SEARCH_LIMIT)), MAX_SEARCH_LIMIT);
      const accept = accepts(options);
      const terms = queryTerms(query.slice(0, MAX_QUERY_LENGTH));
      if (terms.length === 0) {
        return documents
          .filter((document) => accept(document))
          .slice(0, limit)
          .map((document) => hit(document, 0));
      }
      // The terms are processed already: MiniSearch gets them as they are, not the raw query again.
      const results: SearchResult[] = miniSearch.search(terms.join(" "), {
        tokenize: splitOnSpace,
        processTerm: asIs,
        filter: (result) => accept(at(result.id as number)),
      });
      results.sort((a, b) => b.score - a.score || (a.id as number) - (b.id as number));
      // A query that is an integration's name or id asks for that integration: it comes first, whatever its ops score.
      const asked = named.get(query.trim().toLowerCase());
      const place = asked === undefined ? -1 : results.findIndex((result) => result.id === asked);
      if (place > 0) results.unshift(...results.splice(place, 1));
      return results.slice(0, limit).map((result) => hit(at(result.id as number), result.score));
    },
  };
}
