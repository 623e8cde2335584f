import { describe, expect, it } from "vitest";
import { loadRegistry } from "./load-registry.js";
import { validManifest } from "./__fixtures__/valid-manifest.js";

describe("compiled operations", () => {
  const registry = loadRegistry([{ file: "example.json", json: validManifest() }]);

  it("split the path once into the base, segments and query pairs", () => {
    const list = registry.operation("example", "repos.list");
    expect(list).toMatchObject({
      integration: "example",
      origin: "https://api.example.com",
      basePath: "/v2",
      method: "GET",
      encoding: "json",
      authorization: "Bearer",
      pathSegments: [
        { kind: "literal", text: "user" },
        { kind: "literal", text: "repos" },
      ],
      query: [
        { key: "per_page", value: { kind: "literal", text: "20" } },
        { key: "sort", value: { kind: "arg", name: "sort" } },
      ],
    });
    expect(list?.headers).toEqual([
      ["Accept", "application/json"],
      ["X-Api-Version", "2024-01-01"],
    ]);
    const issue = registry.operation("example", "issues.get");
    expect(issue?.pathSegments.map((segment) => segment.kind)).toEqual(["literal", "arg", "arg", "literal", "arg"]);
  });

  it("compile args with anchored u-flag patterns and defaults", () => {
    const number = registry.operation("example", "issues.get")?.args.get("number");
    expect(number?.pattern?.test("42")).toBe(true);
    expect(number?.pattern?.test("42x")).toBe(false);
    expect(number?.pattern?.flags).toContain("u");
    expect(number?.maxLength).toBe(256);
    expect(registry.operation("example", "issues.get")?.args.get("owner")?.maxLength).toBe(39);
  });

  it("carry the body builder, the form encoding, the confirm parts and the pick", () => {
    const create = registry.operation("example", "customers.create");
    expect(create?.encoding).toBe("form");
    expect(JSON.parse(JSON.stringify(create?.renderBody?.({ email: "a@b.c", plan: "pro" })))).toEqual({
      email: "a@b.c",
      metadata: { plan: "pro" },
    });
    expect(registry.operation("example", "issues.create")?.confirmParts).toEqual([
      { kind: "literal", text: "Open “" },
      { kind: "arg", name: "title" },
      { kind: "literal", text: "” in " },
      { kind: "arg", name: "owner" },
      { kind: "literal", text: "/" },
      { kind: "arg", name: "repo" },
      { kind: "literal", text: "?" },
    ]);
    expect(registry.operation("example", "repos.list")?.renderBody).toBeUndefined();
    expect(typeof registry.operation("example", "repos.list")?.pick).toBe("function");
    expect(registry.operation("example", "nope.nope")).toBeUndefined();
    expect(registry.operation("nope", "repos.list")).toBeUndefined();
  });
});
