export {
  createSearchIndex,
  DEFAULT_SEARCH_LIMIT,
  MAX_SEARCH_LIMIT,
  MAX_QUERY_LENGTH,
  type SearchIndex,
  type SearchHit,
  type IntegrationHit,
  type OperationHit,
  type SearchOptions,
} from "./search-index.js";
export type { SearchableIntegration } from "./search-documents.js";
export { processTerm, tokenize, queryTerms, MAX_QUERY_TERMS, MAX_TERM_LENGTH } from "./search-terms.js";
