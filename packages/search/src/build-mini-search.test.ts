import MiniSearch from "minisearch";
import { describe, expect, it } from "vitest";
import { manifestFiles } from "@eleven-integrations/manifests";
import { loadRegistry } from "@eleven-integrations/loader";
import { buildMiniSearch } from "./build-mini-search.js";
import { searchDocuments } from "./search-documents.js";
import { SEARCH_FIELDS } from "./search-index.js";
import { processTerm, tokenize } from "./search-terms.js";

const options = { idField: "key", fields: [...SEARCH_FIELDS], tokenize, processTerm } as const;

/** The index as MiniSearch builds it itself, document by document. */
function addedOneByOne<Document>(documents: readonly Document[]): MiniSearch<Document> {
  const miniSearch = new MiniSearch<Document>({ ...options, fields: [...options.fields] });
  miniSearch.addAll(documents);
  return miniSearch;
}

const shipped = loadRegistry(manifestFiles).integrations();

describe("buildMiniSearch: the index addAll builds, made in one pass", () => {
  it("holds the same terms, postings, field lengths and tree order as addAll over the shipped manifests", () => {
    const documents = searchDocuments(shipped);
    const built = buildMiniSearch(documents, { ...options, fields: [...options.fields] });
    expect(JSON.stringify(built.toJSON())).toBe(JSON.stringify(addedOneByOne(documents).toJSON()));
  });

  it("matches addAll on awkward text: repeated and accented words, stop words only, empty fields, the same text on consecutive documents", () => {
    const documents = [
      { key: "a", title: "Café café CAFÉS", opName: "", label: "the of a", description: "issues issue Issues, repositories", category: "Dev" },
      { key: "b", title: "Café café CAFÉS", opName: "issues.create", label: "", description: "", category: "Dev" },
      { key: "c", title: "naïve", opName: "post_message", label: "Post a message", description: "message messages: ４２ ½", category: "Chat" },
      { key: "d", title: "", opName: "", label: "", description: "", category: "" },
    ];
    const built = buildMiniSearch(documents, { ...options, fields: [...options.fields] });
    expect(JSON.stringify(built.toJSON())).toBe(JSON.stringify(addedOneByOne(documents).toJSON()));
  });

  it("answers every query with the same hits and scores as addAll's index", () => {
    const documents = searchDocuments(shipped);
    const searchOptions = { boost: { title: 3, label: 2.5 }, fuzzy: 0.2, prefix: true, combineWith: "OR" } as const;
    const built = buildMiniSearch(documents, { ...options, fields: [...options.fields], searchOptions });
    const reference = new MiniSearch<(typeof documents)[number]>({ ...options, fields: [...options.fields], searchOptions });
    reference.addAll(documents);
    for (const query of ["github", "create issue", "mesage", "slack post", "repositor", "zzz"]) {
      expect(built.search(query)).toEqual(reference.search(query));
    }
  });
});
