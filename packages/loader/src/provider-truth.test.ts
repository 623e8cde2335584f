import { describe, expect, it } from "vitest";
import { compileLookup } from "./compile-lookup.js";
import { loadRegistry } from "./load-registry.js";
import { RegistryError } from "./registry-error.js";
import { validManifest } from "./__fixtures__/valid-manifest.js";

type Json = Record<string, unknown> & { ops: Record<string, unknown>[] };

function manifestWith(errors: unknown, page: unknown): Json {
  const manifest = validManifest() as Json;
  if (errors !== undefined) manifest.errors = errors;
  const list = manifest.ops[0] as Record<string, unknown>;
  list.path = "/user/repos?per_page=20&sort={sort}&page={page}";
  list.args = { ...(list.args as object), page: { pattern: "[0-9]{1,6}" } };
  if (page !== undefined) list.page = page;
  return manifest;
}

describe("compileLookup", () => {
  it("reads own properties, indexes arrays by number and takes the first match through an array", () => {
    const body = { errors: [{ message: "first", extensions: { code: "A" } }, { message: "second" }], list: [{}, { id: 7 }] };
    expect(compileLookup("errors.message")(body)).toBe("first");
    expect(compileLookup("errors.1.message")(body)).toBe("second");
    expect(compileLookup("errors.extensions.code")(body)).toBe("A");
    expect(compileLookup("list.id")(body)).toBe(7);
    expect(compileLookup("toString")({})).toBeUndefined();
    expect(compileLookup("a.b")({ a: "text" })).toBeUndefined();
  });
});

describe("loading an error dialect and a paging declaration", () => {
  it("compiles the dialect once for the integration and the paging per op", () => {
    const registry = loadRegistry([
      {
        file: "example.json",
        json: manifestWith(
          { failed_when: { path: "ok", equals: false }, code: "error", message: ["detail", "error"], codes: { invalid_auth: "unauthorized" } },
          { from: "link", arg: "page", query_key: "page" },
        ),
      },
    ]);
    const list = registry.operation("example", "repos.list");
    const other = registry.operation("example", "issues.create");
    expect(list?.errors).toBeDefined();
    expect(other?.errors).toBe(list?.errors);
    expect(list?.errors?.failed({ ok: false, error: "invalid_auth" })).toBe(true);
    expect(list?.errors?.failed({ ok: true })).toBe(false);
    expect(list?.errors?.failed({})).toBe(false);
    expect(list?.errors?.details({ ok: false, error: "invalid_auth" })).toEqual({ code: "invalid_auth", message: "invalid_auth" });
    expect(list?.errors?.mapCode("invalid_auth")).toBe("unauthorized");
    expect(list?.errors?.mapCode("constructor")).toBeUndefined();
    expect(list?.paging).toMatchObject({ arg: "page", linkQueryKey: "page", cursorFromBody: undefined });
    expect(other?.paging).toBeUndefined();
  });

  it("finds the next cursor for body and last_item paging, only when the provider says there is more", () => {
    const load = (page: unknown) =>
      loadRegistry([{ file: "example.json", json: manifestWith({ failed_when: { path: "errors", present: true } }, page) }]).operation("example", "repos.list")
        ?.paging?.cursorFromBody as (body: unknown) => string | undefined;
    const slack = load({ from: "body", arg: "page", cursor: "response_metadata.next_cursor" });
    expect(slack({ response_metadata: { next_cursor: "dGVhbTpDMDYxRkE1UEI=" } })).toBe("dGVhbTpDMDYxRkE1UEI=");
    expect(slack({ response_metadata: { next_cursor: "" } })).toBeUndefined();
    expect(slack({})).toBeUndefined();
    const notion = load({ from: "body", arg: "page", cursor: "next_cursor", more: "has_more" });
    expect(notion({ has_more: true, next_cursor: "e6c6f5ff" })).toBe("e6c6f5ff");
    expect(notion({ has_more: false, next_cursor: "e6c6f5ff" })).toBeUndefined();
    expect(notion({ has_more: "true", next_cursor: "e6c6f5ff" })).toBeUndefined();
    const stripe = load({ from: "last_item", arg: "page", items: "data", key: "id", more: "has_more" });
    expect(stripe({ has_more: true, data: [{ id: "cus_1" }, { id: "cus_2" }] })).toBe("cus_2");
    expect(stripe({ has_more: false, data: [{ id: "cus_1" }] })).toBeUndefined();
    expect(stripe({ has_more: true, data: [] })).toBeUndefined();
  });

  it("refuses a declaration that names no valid path with its file and JSON path, and loads nothing", () => {
    const bad = manifestWith({ code: "error..code" }, { from: "body", arg: "cursor", cursor: "next_cursor" });
    let error: unknown;
    try {
      loadRegistry([{ file: "manifests/example.json", json: bad }]);
    } catch (caught) {
      error = caught;
    }
    expect(RegistryError.isInstance(error)).toBe(true);
    expect((error as RegistryError).issues).toEqual([
      { file: "manifests/example.json", path: "errors.code", message: expect.stringContaining("empty segment") },
      { file: "manifests/example.json", path: "ops[0].page.arg", message: 'names no declared arg ("cursor")' },
    ]);
  });

  it("loads a first-release manifest unchanged: no dialect, no paging", () => {
    const registry = loadRegistry([{ file: "example.json", json: validManifest() }]);
    expect(registry.operation("example", "repos.list")?.errors).toBeUndefined();
    expect(registry.operation("example", "repos.list")?.paging).toBeUndefined();
  });
});
