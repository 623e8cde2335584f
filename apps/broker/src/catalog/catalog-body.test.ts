import { manifestFiles } from "@eleven-integrations/manifests";
import { loadRegistry } from "@eleven-integrations/loader";
import { describe, expect, it } from "vitest";
import { servedEntry } from "./catalog.js";
import { catalogBody, entryBody } from "./catalog-body.js";
import { servedCatalog } from "./catalog.js";

const registry = loadRegistry(manifestFiles);

describe("entryBody", () => {
  it("is the served entry's JSON, made from the manifest's canonical JSON, with and without an OAuth app", () => {
    for (const oauthApps of [{}, Object.fromEntries(registry.integrations().map((manifest) => [manifest.id, {}]))]) {
      for (const entry of registry.catalog().integrations) {
        const served = servedEntry(entry, oauthApps).entry;
        const body = entryBody(registry.manifestJson(entry.id) as Buffer, served);
        expect(JSON.parse(body.toString("utf8"))).toEqual(JSON.parse(JSON.stringify(served)));
      }
    }
  });

  it("the whole catalog assembled from the entries is the served catalog's JSON", () => {
    const { catalog } = servedCatalog(registry, {});
    const bodies = catalog.integrations.map((entry) => entryBody(registry.manifestJson(entry.id) as Buffer, entry));
    expect(JSON.parse(catalogBody(catalog, bodies).toString("utf8"))).toEqual(JSON.parse(JSON.stringify(catalog)));
  });
});
