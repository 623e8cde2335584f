import { canonicalJson } from "@eleven-integrations/schema";
import { manifestFiles } from "@eleven-integrations/manifests";
import fc from "fast-check";
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { loadRegistry } from "./load-registry.js";
import { loadRegistryFromRelease } from "./load-release.js";
import { releaseManifestTexts } from "./release-manifest-texts.js";

const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");

/** A release's registry object, as signRelease writes it: keys sorted, RFC 8785. */
function releaseText(integrations: unknown[], hash: string): string {
  return canonicalJson({ schema: 1, hash, sequence: 1, previous: null, integrations });
}

// Sorted by id, as a release holds them.
const manifests = manifestFiles
  .map(({ json }) => {
    const { $schema: _schema, ...content } = json as Record<string, unknown>;
    return content;
  })
  .sort((a, b) => (String(a["id"]) < String(b["id"]) ? -1 : 1));

describe("releaseManifestTexts", () => {
  it("finds each element's text, whatever its strings and nesting hold", () => {
    const tricky = fc.oneof(fc.string(), fc.constantFrom('"', "\\", '\\"', ",", "[", "]", "{", "}", '","', "Démo ✓", "\ud83d\ude00"));
    const value = fc.letrec<{ value: unknown }>((tie) => ({
      value: fc.oneof(
        { depthSize: "small" },
        tricky,
        fc.integer(),
        fc.boolean(),
        fc.constant(null),
        fc.array(tie("value"), { maxLength: 3 }),
        fc.dictionary(tricky, tie("value"), { maxKeys: 3 }),
      ),
    })).value;
    fc.assert(
      fc.property(fc.array(value, { minLength: 1, maxLength: 5 }), (integrations) => {
        const text = releaseText(integrations, "a".repeat(64));
        const found = releaseManifestTexts(text);
        expect(found?.manifests).toEqual(integrations.map((item) => canonicalJson(item)));
        expect(found?.array).toBe(canonicalJson(integrations));
      }),
      { numRuns: 300 },
    );
  });

  it("refuses a text whose keys are not strictly increasing: a second integrations array is not guessed at", () => {
    expect(releaseManifestTexts('{"hash":"x","integrations":[{"id":"a"}],"integrations":[{"id":"b"}]}')).toBeUndefined();
    expect(releaseManifestTexts('{"integrations":[{"id":"a"}],"hash":"x"}')).toBeUndefined();
    expect(releaseManifestTexts('{"hash":"x","previous":null}')).toBeUndefined();
  });
});

describe("loadRegistryFromRelease with the release's text", () => {
  const registry = loadRegistry(manifestFiles);
  const text = releaseText(manifests, registry.hash);

  it("hashes every manifest as a load without it does, taking each one's canonical JSON from the text", () => {
    const fromText = loadRegistryFromRelease({ hash: registry.hash, integrations: JSON.parse(text).integrations, text });
    expect(fromText.hash).toBe(registry.hash);
    for (const manifest of registry.integrations()) {
      expect(fromText.manifestHash(manifest.id)).toBe(registry.manifestHash(manifest.id));
      expect(fromText.manifestJson(manifest.id)?.toString("utf8")).toBe(canonicalJson(manifests.find((item) => item.id === manifest.id)));
    }
  });

  it("takes the text as it stands when its array hashes to the claimed hash (the bytes a release key signed)", () => {
    // The same manifests with a space after one colon: not canonical, and claimed as they stand.
    const spaced = text.replace('"id":', '"id": ');
    const array = releaseManifestTexts(spaced)?.array as string;
    const loaded = loadRegistryFromRelease({ hash: sha256(array), integrations: JSON.parse(spaced).integrations, text: spaced });
    const first = manifests[0] as { id: string };
    expect(loaded.manifestJson(first.id)?.toString("utf8")).toContain('"id": ');
    expect(loaded.manifestHash(first.id)).not.toBe(registry.manifestHash(first.id));
  });

  it("writes the canonical JSON itself when the text does not hash to the claim, and checks the claim as always", () => {
    const spaced = text.replace('"id":', '"id": ');
    const loaded = loadRegistryFromRelease({ hash: registry.hash, integrations: JSON.parse(spaced).integrations, text: spaced });
    expect(loaded.hash).toBe(registry.hash);
    for (const manifest of registry.integrations()) expect(loaded.manifestHash(manifest.id)).toBe(registry.manifestHash(manifest.id));
    expect(() => loadRegistryFromRelease({ hash: "b".repeat(64), integrations: JSON.parse(text).integrations, text })).toThrow(/claims the hash/);
  });

  it("a text whose manifests are not the ones given is not taken", () => {
    const other = JSON.parse(text).integrations as Record<string, unknown>[];
    const renamed = other.map((item, index) => (index === 0 ? { ...item, name: `${String(item["name"])} (changed)` } : item));
    const loaded = loadRegistryFromRelease({ hash: sha256(canonicalJson(renamed)), integrations: renamed, text });
    const first = renamed[0] as { id: string };
    expect(loaded.manifestJson(first.id)?.toString("utf8")).toBe(canonicalJson(renamed[0]));
  });

  it("manifestJson answers a copy: changing it changes nothing the registry holds", () => {
    const id = (manifests[0] as { id: string }).id;
    const copy = registry.manifestJson(id) as Buffer;
    copy.fill(0);
    expect(registry.manifestJson(id)?.toString("utf8")).toBe(canonicalJson(manifests[0]));
    expect(registry.manifestJson("no-such-integration")).toBeUndefined();
  });
});
