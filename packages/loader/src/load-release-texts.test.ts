import { canonicalJson } from "@eleven-integrations/schema";
import { manifestFiles } from "@eleven-integrations/manifests";
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { loadRegistry } from "./load-registry.js";
import { loadRegistryFromRelease } from "./load-release.js";
import type { ReleaseManifestBytes } from "./load-release.js";
import { RegistryError } from "./registry-error.js";
import { prototypeKeyAttacks } from "./__fixtures__/third-release-cases.js";

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

/** The bytes a release laid out by signRelease gives (grants' `ParsedRelease.manifestBytes`), each manifest written by `write`. */
function releaseBytes(integrations: readonly unknown[], write: (manifest: unknown) => string = canonicalJson): ReleaseManifestBytes {
  const texts = integrations.map(write);
  return { manifests: texts.map((text) => Buffer.from(text, "utf8")), array: Buffer.from(`[${texts.join(",")}]`, "utf8") };
}

const parse = (bytes: ReleaseManifestBytes): unknown[] => bytes.manifests.map((manifest) => JSON.parse(Buffer.from(manifest).toString("utf8")) as unknown);

// Sorted by id, as a release holds them.
const manifests = manifestFiles
  .map(({ json }) => {
    const { $schema: _schema, ...content } = json as Record<string, unknown>;
    return content;
  })
  .sort((a, b) => (String(a["id"]) < String(b["id"]) ? -1 : 1));

describe("loadRegistryFromRelease with the release's bytes", () => {
  const registry = loadRegistry(manifestFiles);
  const texts = releaseBytes(manifests);
  const parsed = () => parse(texts);

  it("hashes every manifest as a load without them does, taking each one's canonical JSON from its text", () => {
    const fromText = loadRegistryFromRelease({ hash: registry.hash, integrations: parsed(), manifestBytes: texts });
    expect(fromText.hash).toBe(registry.hash);
    for (const manifest of registry.integrations()) {
      expect(fromText.manifestHash(manifest.id)).toBe(registry.manifestHash(manifest.id));
      expect(fromText.manifestJson(manifest.id)?.toString("utf8")).toBe(canonicalJson(manifests.find((item) => item.id === manifest.id)));
    }
  });

  it("takes the texts as they stand when their array hashes to the claimed hash (the bytes a release key signed)", () => {
    // The same manifests with a space after one colon: not canonical, and claimed as they stand.
    const spaced = releaseBytes(manifests, (manifest) => canonicalJson(manifest).replace('"id":', '"id": '));
    const integrations = parse(spaced);
    const loaded = loadRegistryFromRelease({ hash: sha256(spaced.array), integrations, manifestBytes: spaced });
    const first = manifests[0] as { id: string };
    expect(loaded.manifestJson(first.id)?.toString("utf8")).toContain('"id": ');
    expect(loaded.manifestHash(first.id)).not.toBe(registry.manifestHash(first.id));
  });

  it("writes the canonical JSON itself when the texts do not hash to the claim, and checks the claim as always", () => {
    const spaced = releaseBytes(manifests, (manifest) => canonicalJson(manifest).replace('"id":', '"id": '));
    const integrations = parse(spaced);
    const loaded = loadRegistryFromRelease({ hash: registry.hash, integrations, manifestBytes: spaced });
    expect(loaded.hash).toBe(registry.hash);
    for (const manifest of registry.integrations()) expect(loaded.manifestHash(manifest.id)).toBe(registry.manifestHash(manifest.id));
    expect(() => loadRegistryFromRelease({ hash: "b".repeat(64), integrations: parsed(), manifestBytes: texts })).toThrow(/claims the hash/);
  });

  it("texts whose manifests are not the ones given are not taken", () => {
    const other = parsed() as Record<string, unknown>[];
    const renamed = other.map((item, index) => (index === 0 ? { ...item, name: `${String(item["name"])} (changed)` } : item));
    const loaded = loadRegistryFromRelease({ hash: sha256(Buffer.from(canonicalJson(renamed))), integrations: renamed, manifestBytes: texts });
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

  // The release's manifests are adopted (parsed for this load), so the fast path runs in its parsed-JSON mode: the same refusals.
  it.each(prototypeKeyAttacks)("refuses a release manifest with a prototype key in %s", (_where, text, path) => {
    const attacked = JSON.parse(text) as Record<string, unknown>;
    const { $schema: _schema, ...content } = attacked;
    const bytes = releaseBytes([content], (manifest) => JSON.stringify(manifest));
    let thrown: unknown;
    try {
      loadRegistryFromRelease({ hash: sha256(bytes.array), integrations: parse(bytes), manifestBytes: bytes });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(RegistryError);
    expect((thrown as RegistryError).issues.map((issue) => issue.path)).toContain(path);
  });
});
