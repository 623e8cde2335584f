/** Words that say nothing about which op a person wants. */
const STOP_WORDS = new Set([
  "a",
  "an",
  "the",
  "to",
  "of",
  "in",
  "on",
  "for",
  "my",
  "your",
  "our",
  "and",
  "or",
  "with",
  "from",
  "by",
  "is",
  "it",
  "its",
  "at",
  "as",
  "be",
  "me",
  "i",
  "this",
  "that",
  "into",
  "one",
]);

/**
 * Op ids and arg names are written `issues.create`, `post_message`: they split
 * into words like the rest of the text.
 */
export function tokenize(text: string): string[] {
  // In ASCII text, letters and numbers are A-Z, a-z and 0-9: the Unicode-aware split costs half as much again.
  const tokens = NON_ASCII.test(text) ? text.split(UNICODE_SEPARATORS) : text.split(ASCII_SEPARATORS);
  // Only a separator at either end leaves an empty token.
  if (tokens.length > 0 && tokens[tokens.length - 1] === "") tokens.pop();
  if (tokens.length > 0 && tokens[0] === "") tokens.shift();
  return tokens;
}

const NON_ASCII = /[^\x00-\x7f]/;
const ASCII_SEPARATORS = /[^A-Za-z0-9]+/;
const UNICODE_SEPARATORS = /[^\p{L}\p{N}]+/u;

/**
 * One term as it is indexed and searched: lowercase, without accents, a plain
 * English plural reduced to its singular (`issues` -> `issue`, `repositories`
 * -> `repository`), stop words dropped. The same function runs on both sides,
 * so a query finds what the index holds whatever the spelling of the number.
 */
export function processTerm(term: string): string | null {
  const lower = term
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase();
  if (lower === "" || STOP_WORDS.has(lower)) return null;
  return singular(lower);
}

function singular(word: string): string {
  if (word.length <= 3) return word;
  if (word.endsWith("ies") && word.length > 4) return `${word.slice(0, -3)}y`;
  if (/(ss|us|is)$/.test(word)) return word;
  if (/(sh|ch|x)es$/.test(word)) return word.slice(0, -2);
  if (word.endsWith("s")) return word.slice(0, -1);
  return word;
}

/** At most this many distinct terms of a query are searched; the rest are ignored. */
export const MAX_QUERY_TERMS = 8;
/** A term is cut to this many characters: fuzzy matching costs the term's length at every index node it visits. */
export const MAX_TERM_LENGTH = 32;

/**
 * The terms a query searches for: processed like the index, each cut to
 * {@link MAX_TERM_LENGTH}, duplicates dropped, the first {@link MAX_QUERY_TERMS}
 * kept. A long query then costs what a query of a few words costs: one term
 * repeated forty times is searched once, forty distinct words are searched
 * eight at a time.
 */
export function queryTerms(query: string): string[] {
  const terms = new Set<string>();
  for (const token of tokenize(query)) {
    const term = processTerm(token);
    if (term === null) continue;
    terms.add(term.length > MAX_TERM_LENGTH ? term.slice(0, MAX_TERM_LENGTH) : term);
    if (terms.size === MAX_QUERY_TERMS) break;
  }
  return [...terms];
}

/**
 * How many edits a term may be from a word it matches: none under four letters, one up
 * to six, two beyond. Two edits on six letters rewrite a third of the word: with Gmail's
 * many "message" ops in the catalog, "mesage" matched the rarer "merge" first.
 */
export function fuzziness(term: string): number | false {
  if (term.length < 4) return false;
  return term.length < 7 ? 1 : 2;
}
