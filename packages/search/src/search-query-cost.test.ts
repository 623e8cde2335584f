import MiniSearch from "minisearch";
import { afterEach, describe, expect, it, vi } from "vitest";
import { manifestFiles } from "@eleven-integrations/manifests";
import { loadRegistry } from "@eleven-integrations/loader";
import { createSearchIndex, MAX_QUERY_TERMS, MAX_TERM_LENGTH, queryTerms } from "./index.js";

// The review's attack (issue 20, finding 10): one public 200-character query made the
// broker's search do hundreds of times the work of an ordinary one at 1,000 manifests.
// Work is counted, not timed: every index term a query term expands to (itself, its
// prefix completions and its fuzzy neighbours) is one call of MiniSearch's per-term
// scoring, which then scores each document that holds the term in each field: the
// count is those postings, summed over the expansions.
const files = [...manifestFiles];
for (let i = 0; i < 1000; i += 1) {
  const source = manifestFiles[i % manifestFiles.length]?.json as { name: string };
  const id = `generated-${String(i).padStart(4, "0")}`;
  files.push({ file: `${id}.json`, json: { ...source, id, name: `${source.name} ${i}` } });
}
const index = createSearchIndex(loadRegistry(files).integrations());

type Postings = Map<number, Map<number, number>>;
type Scoring = { termResults: (source: string, derived: string, weight: number, boost: number, data: Postings | undefined, ...rest: unknown[]) => unknown };

/** The postings (document and field of an index term) scored while answering `query`. */
function work(query: string): number {
  const spy = vi.spyOn(MiniSearch.prototype as unknown as Scoring, "termResults");
  index.search(query);
  let postings = 0;
  for (const call of spy.mock.calls) for (const documents of call[4]?.values() ?? []) postings += documents.size;
  spy.mockRestore();
  return postings;
}

afterEach(() => vi.restoreAllMocks());

describe("a long query costs what a few words cost", () => {
  const ordinary = "create issue";
  // Distinct real words of the catalog, each with prefix and two-edit fuzzy expansion.
  const distinct =
    "list create update delete message channel issue customer invoice domain record task calendar event page block comment repository member user team project label".slice(
      0,
      200,
    );
  const repeated = "issues ".repeat(28);
  const oneLongWord = "a".repeat(200);

  it("each attack query is 200 characters or close to it", () => {
    for (const query of [distinct, repeated, oneLongWord]) expect(query.length).toBeGreaterThanOrEqual(150);
  });

  it("deduplicates terms, keeps at most MAX_QUERY_TERMS and cuts each to MAX_TERM_LENGTH", () => {
    expect(queryTerms(repeated)).toEqual(["issue"]);
    expect(queryTerms(distinct)).toHaveLength(MAX_QUERY_TERMS);
    expect(queryTerms(distinct)).toEqual(["list", "create", "update", "delete", "message", "channel", "issue", "customer"]);
    expect(queryTerms(oneLongWord)).toEqual(["a".repeat(MAX_TERM_LENGTH)]);
    expect(queryTerms("Issues ISSUE issue Issües")).toEqual(["issue"]);
  });

  it("scores at most a few times the postings of an ordinary two-word query", () => {
    const base = work(ordinary);
    expect(base).toBeGreaterThan(1000);
    // Eight terms against the ordinary query's two: four times, with room for words that expand more.
    expect(work(distinct)).toBeLessThanOrEqual(base * 8);
    expect(work(repeated)).toBeLessThanOrEqual(base);
    expect(work(oneLongWord)).toBeLessThanOrEqual(base);
  });

  it("still finds what the first words of a long query ask for", () => {
    const [hit] = index.search(`create issue ${"zzzz ".repeat(40)}`, { limit: 1 });
    expect(hit).toMatchObject({ kind: "op", op: "issues.create" });
  });
});
