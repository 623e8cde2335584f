import { manifestFiles } from "@eleven-integrations/manifests";
import { loadRegistry } from "@eleven-integrations/loader";
import { describe, expect, it } from "vitest";
import { servedEntry } from "./catalog.js";
import { catalogBodies } from "./catalog-body.js";
import { servedCatalog, type ServedCatalog } from "./catalog.js";

const registry = loadRegistry(manifestFiles);

const manifestJson = (catalog: ServedCatalog) => catalog.integrations.map((entry) => registry.manifestJson(entry.id) as Buffer);

describe("catalogBodies", () => {
  const withAndWithoutApps = [{}, Object.fromEntries(registry.integrations().map((manifest) => [manifest.id, {}]))];

  it("each entry's bytes are the served entry's JSON, made from the manifest's canonical JSON, with and without an OAuth app", () => {
    for (const oauthApps of withAndWithoutApps) {
      const { catalog } = servedCatalog(registry, oauthApps);
      const bodies = catalogBodies(catalog, manifestJson(catalog));
      registry.catalog().integrations.forEach((entry, index) => {
        const served = servedEntry(entry, oauthApps).entry;
        expect(JSON.parse((bodies.entries[index] as Buffer).toString("utf8"))).toEqual(JSON.parse(JSON.stringify(served)));
      });
    }
  });

  it("the whole catalog is the served catalog's JSON, each entry's bytes standing in it", () => {
    for (const oauthApps of withAndWithoutApps) {
      const { catalog } = servedCatalog(registry, oauthApps);
      const bodies = catalogBodies(catalog, manifestJson(catalog));
      const text = bodies.catalog.toString("utf8");
      expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(catalog)));
      expect(text).toBe(`{"schema":1,"hash":"${catalog.hash}","integrations":[${bodies.entries.map((body) => body.toString("utf8")).join(",")}]}`);
    }
  });

  it("an empty catalog", () => {
    const catalog: ServedCatalog = { schema: 1, hash: "a".repeat(64), integrations: [] };
    const bodies = catalogBodies(catalog, []);
    expect(JSON.parse(bodies.catalog.toString("utf8"))).toEqual(catalog);
    expect(bodies.entries).toEqual([]);
  });
});
