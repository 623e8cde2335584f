import MiniSearch, { type Options } from "minisearch";

/** How the index reads its documents: MiniSearch's options, with the fields each a string on every document. */
export interface IndexOptions<Document> extends Options<Document> {
  readonly fields: (keyof Document & string)[];
  readonly idField: keyof Document & string;
  readonly tokenize: (text: string) => string[];
  readonly processTerm: (term: string) => string | null;
}

/** A term's postings, as MiniSearch keeps them: field id, then short document id, then the term's count there. */
type TermData = Map<number, Map<number, number>>;

/**
 * One term's postings while the documents are read: per field, flat [document id, count]
 * pairs, in document order. Filling thousands of small maps token by token costs about three times
 * appending to arrays and making each map at the end in one go.
 */
class Term {
  /** Field ids in the order the term first appeared in them (MiniSearch's map order). */
  readonly #fields: number[] = [];
  readonly #pairs: (number[] | undefined)[] = [];

  /** One more occurrence in `fieldId` of `documentId` (documents are read in id order). */
  add(fieldId: number, documentId: number): void {
    const pairs = this.#pairs[fieldId];
    if (pairs === undefined) {
      this.#fields.push(fieldId);
      this.#pairs[fieldId] = [documentId, 1];
    } else if (pairs[pairs.length - 2] === documentId) pairs[pairs.length - 1] = (pairs[pairs.length - 1] as number) + 1;
    else pairs.push(documentId, 1);
  }

  /** The postings as MiniSearch keeps them. */
  data(): TermData {
    const data: TermData = new Map();
    for (const fieldId of this.#fields) {
      const pairs = this.#pairs[fieldId] as number[];
      const postings = new Map<number, number>();
      for (let index = 0; index < pairs.length; index += 2) postings.set(pairs[index] as number, pairs[index + 1] as number);
      data.set(fieldId, postings);
    }
    return data;
  }
}

/** A distinct token: its term (null for a stop word), and the last field (a running count) it was counted in. */
interface Token {
  readonly term: Term | null;
  seenIn: number;
}

/** The one part of MiniSearch's state its public `loadJS` can only take as plain objects: the term tree. */
interface TermTree {
  set(term: string, data: TermData): unknown;
}

/**
 * `new MiniSearch(options)` after `addAll(documents)`, built in one pass. MiniSearch's
 * `add` walks its radix tree and processes the term once per token; here each distinct
 * token is processed once and then costs one hash map lookup, and each distinct term
 * is put in the tree once, in the order `addAll` would first have met it. The result is
 * the same index to the last field length, posting and tree node: a test compares both
 * indexes' `toJSON()`.
 *
 * Everything but the terms goes through `MiniSearch.loadJS`; the terms are set in its
 * tree directly, since `loadJS` takes them only as objects keyed by id strings, and
 * making those and parsing them back costs as much as the rest of the build.
 */
export function buildMiniSearch<Document>(documents: readonly Document[], options: IndexOptions<Document>): MiniSearch<Document> {
  const { fields, idField, tokenize, processTerm } = options;
  const fieldIds: Record<string, number> = {};
  fields.forEach((field, fieldId) => {
    fieldIds[field] = fieldId;
  });
  const documentIds: Record<number, unknown> = {};
  const fieldLength: Record<number, number[]> = {};
  const averageFieldLength: number[] = [];
  const terms = new Map<string, Term>();
  // Each distinct token, processed once.
  const tokenInfo = new Map<string, Token>();
  const infoOf = (token: string): Token => {
    let info = tokenInfo.get(token);
    if (info !== undefined) return info;
    const processed = processTerm(token);
    let term: Term | null = null;
    if (processed) {
      term = terms.get(processed) ?? null;
      if (term === null) {
        term = new Term();
        terms.set(processed, term);
      }
    }
    info = { term, seenIn: -1 };
    tokenInfo.set(token, info);
    return info;
  };
  // A field whose text is the previous document's (an integration's name on each of its ops) is tokenized once.
  const lastText: unknown[] = [];
  const lastTokens: Token[][] = [];
  let field = 0;

  for (let documentId = 0; documentId < documents.length; documentId += 1) {
    const document = documents[documentId] as Document;
    documentIds[documentId] = document[idField];
    const lengths: number[] = [];
    for (let fieldId = 0; fieldId < fields.length; fieldId += 1) {
      const text = document[fields[fieldId] as keyof Document];
      let tokens = lastTokens[fieldId] as Token[];
      if (text !== lastText[fieldId]) {
        tokens = tokenize(String(text)).map(infoOf);
        lastText[fieldId] = text;
        lastTokens[fieldId] = tokens;
      }
      // The field's length is its count of distinct tokens (before processing), as MiniSearch counts it.
      field += 1;
      let unique = 0;
      for (let index = 0; index < tokens.length; index += 1) {
        const info = tokens[index] as Token;
        if (info.seenIn !== field) {
          info.seenIn = field;
          unique += 1;
        }
        info.term?.add(fieldId, documentId);
      }
      lengths[fieldId] = unique;
      // MiniSearch's running average, in its arithmetic, so the scores match to the last bit.
      averageFieldLength[fieldId] = ((averageFieldLength[fieldId] || 0) * documentId + unique) / (documentId + 1);
    }
    fieldLength[documentId] = lengths;
  }

  const miniSearch = MiniSearch.loadJS<Document>(
    {
      documentCount: documents.length,
      nextId: documents.length,
      documentIds,
      fieldIds,
      fieldLength,
      averageFieldLength,
      storedFields: {},
      dirtCount: 0,
      index: [],
      serializationVersion: 2,
    },
    options,
  );
  const tree = (miniSearch as unknown as { _index: TermTree })._index;
  for (const [text, term] of terms) tree.set(text, term.data());
  return miniSearch;
}
