import { manifestFiles } from "@eleven-integrations/manifests";
import { describe, expect, it } from "vitest";
import { loadRegistry } from "./load-registry.js";
import { loadRegistryFromRelease } from "./load-release.js";
import { RegistryError } from "./registry-error.js";
import { CHECKPOINT_EVERY } from "./registry-hash.js";
import { validManifest } from "./__fixtures__/valid-manifest.js";

type Json = Record<string, unknown>;

const texts = () => manifestFiles.map(({ file, json }) => ({ file, text: JSON.stringify(json, null, 2) }));
const renamed = (json: unknown, name: string) => ({ ...(json as Json), name });

describe("loadRegistry(files, { previous })", () => {
  it("reuses every unchanged manifest and its compiled ops, and rebuilds only the changed one", () => {
    const first = loadRegistry(manifestFiles);
    const [changed, ...rest] = manifestFiles;
    const files = [{ file: changed!.file, json: renamed(changed!.json, "Renamed") }, ...rest.map(({ file, json }) => ({ file, json: structuredClone(json) }))];
    const second = loadRegistry(files, { previous: first });
    const changedId = (changed!.json as Json).id as string;
    expect(second.get(changedId)?.name).toBe("Renamed");
    expect(second.get(changedId)).not.toBe(first.get(changedId));
    expect(second.manifestHash(changedId)).not.toBe(first.manifestHash(changedId));
    for (const { json } of rest) {
      const id = (json as Json).id as string;
      expect(second.get(id)).toBe(first.get(id));
      const opId = second.get(id)?.ops[0]?.id as string;
      expect(second.operation(id, opId)).toBe(first.operation(id, opId));
    }
    // Exactly what a load from scratch gives.
    const cold = loadRegistry(files);
    expect(second.hash).toBe(cold.hash);
    expect(second.catalog()).toEqual(cold.catalog());
    expect(second.integrations().map((m) => m.id)).toEqual(cold.integrations().map((m) => m.id));
  });

  it("notices a manifest changed in place (same object, new content)", () => {
    const json = structuredClone(manifestFiles[0]!.json) as Json;
    const first = loadRegistry([{ file: manifestFiles[0]!.file, json }]);
    json.name = "Changed in place";
    const second = loadRegistry([{ file: manifestFiles[0]!.file, json }], { previous: first });
    expect(second.get(json.id as string)?.name).toBe("Changed in place");
    expect(second.hash).not.toBe(first.hash);
  });

  it("still refuses what is invalid: a changed manifest that fails, a duplicate id, a misnamed file", () => {
    const first = loadRegistry(manifestFiles);
    const [one, ...rest] = manifestFiles;
    const broken = { ...(one!.json as Json), ops: [] };
    expect(() => loadRegistry([{ file: one!.file, json: broken }, ...rest], { previous: first })).toThrow(RegistryError);
    expect(() => loadRegistry([...manifestFiles, { file: `copy/${one!.file}`, json: one!.json }], { previous: first })).toThrow(/already used/);
    expect(() => loadRegistry([{ file: "other.json", json: one!.json }, ...rest], { previous: first })).toThrow(/must equal the file's base name/);
  });

  it("reuses text it has seen for the same file without parsing it again, and parses text that changed", () => {
    const first = loadRegistry(texts());
    const again = texts().map(({ file, text }) => ({ file, text: `${text}` }));
    const second = loadRegistry(again, { previous: first });
    expect(second.hash).toBe(first.hash);
    for (const manifest of first.integrations()) expect(second.get(manifest.id)).toBe(manifest);
    const bad = again.map((entry, index) => (index === 0 ? { ...entry, text: entry.text.slice(0, 10) } : entry));
    expect(() => loadRegistry(bad, { previous: first })).toThrow(/invalid JSON/);
  });

  it("keeps a `$schema` change (not part of the hash) instead of reusing the old manifest", () => {
    const json = structuredClone(manifestFiles[0]!.json) as Json;
    delete json.$schema;
    const first = loadRegistry([{ file: manifestFiles[0]!.file, json }]);
    const second = loadRegistry([{ file: manifestFiles[0]!.file, json: { ...json, $schema: "../schema.json" } }], { previous: first });
    expect(second.get(json.id as string)?.$schema).toBe("../schema.json");
    expect(second.hash).toBe(first.hash);
  });
});

describe("the registry hash after a reload", () => {
  // More manifests than two hash checkpoints hold, so a reload resumes from a saved sha-256 state.
  const many = Array.from({ length: 3 * CHECKPOINT_EVERY + 5 }, (_, index) => {
    const source = manifestFiles[index % manifestFiles.length]!.json as Json;
    const id = `m-${String(index).padStart(3, "0")}`;
    return { file: `${id}.json`, text: JSON.stringify({ ...source, id }) };
  });
  const rename = (files: typeof many, index: number, name: string) =>
    files.map((entry, at) => (at === index ? { ...entry, text: entry.text.replace('"name":"', `"name":"${name} `) } : entry));

  it("is the cold load's hash whatever changed: first, middle or last manifest, one added, one removed", () => {
    const first = loadRegistry(many);
    const changes = [
      rename(many, 0, "A"),
      rename(many, CHECKPOINT_EVERY, "B"),
      rename(many, 2 * CHECKPOINT_EVERY + 3, "C"),
      rename(many, many.length - 1, "D"),
      many.slice(0, -1),
      many.filter((_, index) => index !== CHECKPOINT_EVERY + 1),
      [...many, { file: "zz-new.json", text: JSON.stringify({ ...(manifestFiles[0]!.json as Json), id: "zz-new" }) }],
    ];
    let previous = first;
    for (const files of changes) {
      const cold = loadRegistry(files.map(({ file, text }) => ({ file, text })));
      expect(loadRegistry(files, { previous: first }).hash).toBe(cold.hash);
      const chained = loadRegistry(files, { previous });
      expect(chained.hash).toBe(cold.hash);
      previous = chained;
    }
  });
});

describe("loadRegistryFromRelease", () => {
  const catalog = loadRegistry(manifestFiles).catalog();
  const integrations = catalog.integrations.map(({ hash: _hash, ...manifest }) => manifest);

  it("loads a release's manifests when its hash is theirs", () => {
    expect(loadRegistryFromRelease({ hash: catalog.hash, integrations }).hash).toBe(catalog.hash);
  });

  it("refuses a hash that is not the manifests' and a manifest that fails validation", () => {
    expect(() => loadRegistryFromRelease({ hash: "0".repeat(64), integrations })).toThrow(/claims the hash/);
    const bad = [{ ...integrations[0], auth: { kind: "pat" } }, ...integrations.slice(1)];
    try {
      loadRegistryFromRelease({ hash: catalog.hash, integrations: bad });
      throw new Error("expected a refusal");
    } catch (error) {
      expect(RegistryError.isInstance(error)).toBe(true);
      expect((error as RegistryError).issues[0]?.file).toBe(`${(integrations[0] as Json).id}.json`);
    }
  });
});

describe("adopting parsed manifests", () => {
  it("freezes and keeps the very objects given with adopt, and copies them without", () => {
    const adopted = validManifest();
    const copied = validManifest();
    const registry = loadRegistry([{ file: "example.json", json: adopted }], { adopt: true });
    expect(registry.get("example")).toBe(adopted);
    expect(Object.isFrozen(adopted)).toBe(true);
    const other = loadRegistry([{ file: "example.json", json: copied }]);
    expect(other.get("example")).not.toBe(copied);
    expect(Object.isFrozen(copied)).toBe(false);
  });

  it("adopts a release's manifests", () => {
    const catalog = loadRegistry(manifestFiles).catalog();
    const integrations = catalog.integrations.map(({ hash: _hash, ...manifest }) => structuredClone(manifest));
    const registry = loadRegistryFromRelease({ hash: catalog.hash, integrations });
    expect(registry.integrations()).toEqual(expect.arrayContaining([integrations[0]]));
    expect(registry.get((integrations[0] as { id: string }).id)).toBe(integrations[0]);
  });
});
