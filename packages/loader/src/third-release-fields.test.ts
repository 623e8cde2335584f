import { describe, expect, it } from "vitest";
import { loadRegistry } from "./load-registry.js";
import { RegistryError, type RegistryIssue } from "./registry-error.js";
import { validManifest } from "./__fixtures__/valid-manifest.js";
import { allThirdReleaseFields, prototypeKeyAttacks, thirdReleaseRefusals, type Manifest } from "./__fixtures__/third-release-cases.js";

function issuesOfText(text: string): RegistryIssue[] {
  try {
    loadRegistry([{ file: "example.json", text }]);
  } catch (error) {
    expect(RegistryError.isInstance(error)).toBe(true);
    return [...(error as RegistryError).issues];
  }
  throw new Error("expected the registry to be refused");
}

function refused(mutate: (manifest: Manifest) => void): RegistryIssue[] {
  const manifest = validManifest() as Manifest;
  mutate(manifest);
  return issuesOfText(JSON.stringify(manifest));
}

function load(mutate: (manifest: Manifest) => void) {
  const manifest = validManifest() as Manifest;
  mutate(manifest);
  return loadRegistry([{ file: "example.json", json: manifest }]);
}

describe("third-release manifest fields load, each optional", () => {
  it("loads identity, revocation, tenant, preview, suffixes, next_op, next_path (by path and by top_key) and typed args together", () => {
    const registry = load(allThirdReleaseFields);
    const manifest = registry.get("example");
    expect(manifest?.auth.identity).toBe("users.me");
    const create = registry.operation("example", "issues.create");
    expect(create?.preview?.op).toBe("issues.get");
    expect(create?.preview?.args({ owner: "octo", repo: "hello", title: "t" })).toEqual({ owner: "octo", repo: "hello", number: "1" });
    expect(registry.operation("example", "issues.get")?.pathSegments.at(-1)).toEqual({ kind: "arg", name: "number", suffix: ".json" });
    expect(registry.operation("example", "repos.list")?.paging).toMatchObject({ arg: undefined, nextOp: "repos.list_continue", nextPath: false });
    expect(registry.operation("example", "records.query")?.paging).toMatchObject({ arg: undefined, nextPath: true });
    const graph = registry.operation("example", "messages.list")?.paging;
    expect(graph).toMatchObject({ arg: undefined, nextPath: true });
    // The key as written, "@odata.nextLink", not the dot-path @odata -> nextLink.
    const next = "https://graph.microsoft.com/v1.0/me/messages?$top=50&$skip=50";
    expect(graph?.cursorFromBody?.({ "@odata.nextLink": next, value: [] })).toBe(next);
    expect(graph?.cursorFromBody?.({ "@odata": { nextLink: next }, value: [] })).toBeUndefined();
    expect(graph?.cursorFromBody?.({ value: [] })).toBeUndefined();
    expect(graph?.cursorFromBody?.([{ "@odata.nextLink": next }])).toBeUndefined();
    expect(graph?.cursorFromBody?.(Object.create({ "@odata.nextLink": next }))).toBeUndefined();
    const customers = registry.operation("example", "customers.create");
    expect(customers?.args.get("seats")?.type).toBe("integer");
    expect(customers?.renderBody?.({ email: "a@b.co", seats: "12" })).toEqual({ email: "a@b.co", metadata: {}, quantity: 12 });
  });

  it("keeps a second-release manifest loading unchanged", () => {
    const registry = load(() => undefined);
    expect(registry.operation("example", "repos.list")?.base.fixed).toEqual({ origin: "https://api.example.com", basePath: "/v2" });
  });
});

describe("third-release fields refused with file and JSON path", () => {
  const cases = thirdReleaseRefusals;

  it.each(cases)("%s", (_name, mutate, path, message) => {
    const issues = refused(mutate);
    const match = issues.find((issue) => issue.path === path && message.test(issue.message));
    expect(match, `expected an issue at ${path} matching ${message}; got ${JSON.stringify(issues)}`).toBeDefined();
    expect(issues.every((issue) => issue.file === "example.json")).toBe(true);
  });
});

describe("prototype keys in a manifest (security review finding 12)", () => {
  // The attack: raw JSON text, as a registry file or a pull request holds it. JSON.parse keeps
  // "__proto__" as an own key; a record rebuilt by assignment used to drop it, and validate passed.
  const valid = JSON.stringify(validManifest());
  const attacks = prototypeKeyAttacks;

  it.each(attacks)("refuses a __proto__-style key in %s, naming its path", (_name, text, path) => {
    expect(text).not.toBe(valid);
    const issues = issuesOfText(text);
    const match = issues.find((issue) => issue.path === path && /is not allowed anywhere in a manifest/.test(issue.message));
    expect(match, `expected an issue at ${path}; got ${JSON.stringify(issues)}`).toBeDefined();
  });
});
