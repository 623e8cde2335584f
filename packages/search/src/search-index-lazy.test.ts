import MiniSearch from "minisearch";
import { describe, expect, it, vi } from "vitest";
import { manifestFiles } from "@eleven-integrations/manifests";
import { loadRegistry } from "@eleven-integrations/loader";
import { createSearchIndex } from "./index.js";

const integrations = loadRegistry(manifestFiles).integrations();

describe("the index is built by the first search, once", () => {
  it("indexes nothing when created, everything on the first search, and nothing again after", () => {
    // The index is made through MiniSearch.loadJS (see build-mini-search.ts).
    const built = vi.spyOn(MiniSearch, "loadJS");
    try {
      const index = createSearchIndex(integrations);
      expect(built).not.toHaveBeenCalled();
      // What a server answers before any search needs no index.
      expect(index.size).toBe(integrations.reduce((count, manifest) => count + 1 + manifest.ops.length, 0));
      expect(index.categories().length).toBeGreaterThan(0);
      expect(built).not.toHaveBeenCalled();
      const [first] = index.search("create issue github", { limit: 1 });
      expect(first).toMatchObject({ kind: "op", integration: "github", op: "issues.create" });
      expect(built).toHaveBeenCalledTimes(1);
      expect(built.mock.calls[0]?.[0].documentCount).toBe(index.size);
      index.search("slack message");
      expect(built).toHaveBeenCalledTimes(1);
    } finally {
      built.mockRestore();
    }
  });

  it("answers its first search as an index built up front would", () => {
    const warm = createSearchIndex(integrations);
    warm.search("warm up");
    for (const query of ["github", "post slack message", "stirpe invoices", "", "list"]) {
      expect(createSearchIndex(integrations).search(query, { limit: 50 })).toEqual(warm.search(query, { limit: 50 }));
    }
  });

  it("builds once when asked to, before any search", () => {
    const built = vi.spyOn(MiniSearch, "loadJS");
    try {
      const index = createSearchIndex(integrations);
      index.build();
      expect(built).toHaveBeenCalledTimes(1);
      index.build();
      expect(index.search("create issue github", { limit: 1 })[0]).toMatchObject({ integration: "github", op: "issues.create" });
      expect(built).toHaveBeenCalledTimes(1);
    } finally {
      built.mockRestore();
    }
  });
});
