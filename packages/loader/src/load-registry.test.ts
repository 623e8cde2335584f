import { describe, expect, it } from "vitest";
import { loadRegistry } from "./load-registry.js";
import { RegistryError, type RegistryIssue } from "./registry-error.js";
import { validManifest } from "./__fixtures__/valid-manifest.js";
import { nearMisses, refusedCases, type MutableManifest } from "./__fixtures__/manifest-cases.js";

type Json = Record<string, unknown>;

function issuesOf(files: { file: string; json: unknown }[]): RegistryIssue[] {
  try {
    loadRegistry(files);
  } catch (error) {
    expect(RegistryError.isInstance(error)).toBe(true);
    return [...(error as RegistryError).issues];
  }
  throw new Error("expected the registry to be refused");
}

/** A copy of the valid manifest changed by `mutate`, loaded as example.json. */
function refused(mutate: (manifest: MutableManifest) => void): RegistryIssue[] {
  const manifest = validManifest() as MutableManifest;
  mutate(manifest);
  return issuesOf([{ file: "example.json", json: manifest }]);
}

function loads(mutate: (manifest: MutableManifest) => void): void {
  const manifest = validManifest() as MutableManifest;
  mutate(manifest);
  expect(loadRegistry([{ file: "example.json", json: manifest }]).get("example")).toBeDefined();
}

describe("loadRegistry refuses every rule of schema v1, naming the file and JSON path", () => {
  const cases = refusedCases;

  it.each(cases)("%s", (_name, mutate, path, message) => {
    const issues = refused(mutate);
    const match = issues.find((issue) => issue.path === path && message.test(issue.message));
    expect(match, `expected an issue at ${path} matching ${message}; got ${JSON.stringify(issues)}`).toBeDefined();
    expect(issues.every((issue) => issue.file === "example.json")).toBe(true);
  });
});

describe("near misses load", () => {
  it.each(nearMisses)("%s", (_name, mutate) => loads(mutate));
});

describe("the registry as a whole", () => {
  it("refuses everything when one of two files is bad, and lists the problems of both", () => {
    const good = { ...validManifest(), id: "good" };
    const bad = { ...validManifest(), schema: 3, name: "" };
    const issues = issuesOf([
      { file: "good.json", json: good },
      { file: "bad.json", json: bad },
    ]);
    expect(issues.map((issue) => `${issue.file}: ${issue.path}`)).toEqual(expect.arrayContaining(["bad.json: schema", "bad.json: name", "bad.json: id"]));
  });

  it("refuses a file whose name is not <id>.json", () => {
    const issues = issuesOf([{ file: "manifests/other.json", json: validManifest() }]);
    expect(issues).toContainEqual({ file: "manifests/other.json", path: "id", message: expect.stringMatching(/base name/) });
  });

  it("refuses a file that is not .json", () => {
    const issues = issuesOf([{ file: "example.yaml", json: validManifest() }]);
    expect(issues.some((issue) => issue.path === "$" && /<id>\.json/.test(issue.message))).toBe(true);
  });

  it("refuses a duplicate id", () => {
    const issues = issuesOf([
      { file: "a/example.json", json: validManifest() },
      { file: "b/example.json", json: validManifest() },
    ]);
    expect(issues).toEqual([{ file: "b/example.json", path: "id", message: 'id "example" is already used by a/example.json' }]);
  });

  it("refuses an empty registry", () => {
    expect(issuesOf([])[0]?.message).toMatch(/no manifests/);
  });

  it("is frozen, hashed and lists a catalog", () => {
    const registry = loadRegistry([{ file: "example.json", json: validManifest() }]);
    expect(registry.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(registry.manifestHash("example")).toMatch(/^[0-9a-f]{64}$/);
    expect(registry.manifestHash("missing")).toBeUndefined();
    expect(Object.isFrozen(registry)).toBe(true);
    const manifest = registry.get("example");
    expect(Object.isFrozen(manifest) && Object.isFrozen(manifest?.ops[0])).toBe(true);
    expect(() => {
      (manifest as { name: string }).name = "x";
    }).toThrow(TypeError);
    const catalog = registry.catalog();
    expect(catalog.schema).toBe(1);
    expect(catalog.hash).toBe(registry.hash);
    expect(catalog.integrations[0]).toMatchObject({ id: "example", hash: registry.manifestHash("example") });
    expect(catalog.integrations[0]).not.toHaveProperty("$schema");
  });

  it("hashes content, not spelling: key order and $schema do not change it, a label does", () => {
    const reordered = Object.fromEntries(Object.entries(validManifest()).reverse());
    const { $schema: _schema, ...withoutSchema } = validManifest();
    const a = loadRegistry([{ file: "example.json", json: validManifest() }]);
    const b = loadRegistry([{ file: "example.json", json: reordered }]);
    const c = loadRegistry([{ file: "example.json", json: withoutSchema }]);
    const changed = validManifest();
    (changed.ops as Json[])[0] = { ...((changed.ops as Json[])[0] as Json), label: "Other" };
    const d = loadRegistry([{ file: "example.json", json: changed }]);
    expect(b.hash).toBe(a.hash);
    expect(c.manifestHash("example")).toBe(a.manifestHash("example"));
    expect(d.hash).not.toBe(a.hash);
  });

  it("sorts integrations by id and the hash does not depend on file order", () => {
    const one = { ...validManifest(), id: "zeta" };
    const two = { ...validManifest(), id: "alpha" };
    const a = loadRegistry([
      { file: "zeta.json", json: one },
      { file: "alpha.json", json: two },
    ]);
    const b = loadRegistry([
      { file: "alpha.json", json: two },
      { file: "zeta.json", json: one },
    ]);
    expect(a.integrations().map((manifest) => manifest.id)).toEqual(["alpha", "zeta"]);
    expect(a.hash).toBe(b.hash);
  });

  it("does not keep a reference to the caller's objects", () => {
    const json = validManifest();
    const registry = loadRegistry([{ file: "example.json", json }]);
    json.name = "Changed";
    expect(registry.get("example")?.name).toBe("Example");
  });
});
