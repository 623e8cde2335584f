import { describe, expect, it } from "vitest";
import { parseManifest } from "./parse-manifest.js";

const base = {
  schema: 1,
  id: "example",
  name: "Example",
  category: "development",
  auth: { kind: "pat", base: "https://api.example.com", authorization: "Bearer", pat_help: "https://example.com/tokens" },
};
const listOp = {
  id: "items.list",
  label: "List items",
  access: "read",
  method: "GET",
  path: "/items?limit=20&cursor={cursor}",
  args: { cursor: { max_length: 512 } },
};

function issues(manifest: unknown): { path: string; message: string }[] {
  const result = parseManifest(manifest);
  return result.ok ? [] : result.issues;
}

describe("errors (the integration's error dialect)", () => {
  it("accepts a flag dialect (Slack), a presence dialect (GraphQL) and a status-only dialect (GitHub)", () => {
    const slack = { failed_when: { path: "ok", equals: false }, code: "error", codes: { invalid_auth: "unauthorized", channel_not_found: "not_found" } };
    const graphql = { failed_when: { path: "errors", present: true }, code: "errors.extensions.code", message: "errors.message" };
    const github = { message: "message" };
    const stripe = { code: ["error.code", "error.type"], message: "error.message" };
    for (const errors of [slack, graphql, github, stripe]) expect(issues({ ...base, errors, ops: [listOp] })).toEqual([]);
    expect(issues({ ...base, errors: { failed_when: { path: "ok", equals: null } }, ops: [listOp] })).toEqual([]);
  });

  it("refuses a declaration that names no valid path, at its JSON path", () => {
    expect(issues({ ...base, errors: { code: "error..code" }, ops: [listOp] })).toEqual([
      { path: "errors.code", message: expect.stringContaining("empty segment") },
    ]);
    expect(issues({ ...base, errors: { message: ["error.message", "__proto__.x"] }, ops: [listOp] })).toEqual([
      { path: "errors.message[1]", message: expect.stringContaining("__proto__") },
    ]);
    expect(issues({ ...base, errors: { failed_when: { path: "", equals: false } }, ops: [listOp] })[0]?.path).toBe("errors.failed_when.path");
  });

  it("refuses an unclear or incomplete declaration", () => {
    expect(issues({ ...base, errors: { failed_when: { path: "ok" } }, ops: [listOp] })).toEqual([
      { path: "errors.failed_when", message: 'needs exactly one of "equals" or "present"' },
    ]);
    expect(issues({ ...base, errors: { failed_when: { path: "ok", equals: false, present: true } }, ops: [listOp] })[0]?.path).toBe("errors.failed_when");
    expect(issues({ ...base, errors: {}, ops: [listOp] })[0]?.path).toBe("errors");
    expect(issues({ ...base, errors: { message: "m", codes: { x: "forbidden" } }, ops: [listOp] })).toEqual([
      { path: "errors.codes", message: expect.stringContaining('"code"') },
    ]);
    expect(issues({ ...base, errors: { code: "error", codes: { invalid_auth: "invalid_args" } }, ops: [listOp] })[0]?.path).toBe("errors.codes.invalid_auth");
    expect(issues({ ...base, errors: { code: "error", extra: 1 }, ops: [listOp] })[0]).toEqual({ path: "errors", message: 'unknown key "extra"' });
  });
});

describe("page (a list op's pagination)", () => {
  const withPage = (page: unknown, op: Record<string, unknown> = {}) => ({ ...base, ops: [{ ...listOp, ...op, page }] });

  it("accepts every paging style", () => {
    expect(issues(withPage({ from: "link", arg: "cursor", query_key: "page" }))).toEqual([]);
    expect(issues(withPage({ from: "body", arg: "cursor", cursor: "response_metadata.next_cursor" }))).toEqual([]);
    expect(issues(withPage({ from: "body", arg: "cursor", cursor: "next_cursor", more: "has_more" }))).toEqual([]);
    expect(issues(withPage({ from: "last_item", arg: "cursor", items: "data", key: "id", more: "has_more" }))).toEqual([]);
    const graphql = { method: "POST", path: "/graphql", body_json: { query: "query($after: String) { x }", variables: { after: "{cursor}" } } };
    expect(issues(withPage({ from: "body", arg: "cursor", cursor: "data.x.pageInfo.endCursor", more: "data.x.pageInfo.hasNextPage" }, graphql))).toEqual([]);
  });

  it("refuses a page whose arg is undeclared, required, or not where a cursor can go", () => {
    expect(issues(withPage({ from: "link", arg: "after", query_key: "page" }))).toEqual([
      { path: "ops[0].page.arg", message: 'names no declared arg ("after")' },
    ]);
    expect(issues(withPage({ from: "link", arg: "cursor", query_key: "page" }, { args: { cursor: { required: true } } }))).toEqual([
      { path: "ops[0].args.cursor.required", message: expect.stringContaining("must be optional") },
    ]);
    expect(issues(withPage({ from: "link", arg: "cursor", query_key: "page" }, { path: "/items", args: { cursor: {} } }))).toEqual([
      { path: "ops[0].page.arg", message: expect.stringContaining("must fill a query value") },
    ]);
  });

  it("refuses bad paths, keys and styles at their JSON paths, and paging on a write", () => {
    expect(issues(withPage({ from: "body", arg: "cursor", cursor: "a..b" }))[0]?.path).toBe("ops[0].page.cursor");
    expect(issues(withPage({ from: "last_item", arg: "cursor", key: "id" }))[0]?.path).toBe("ops[0].page.more");
    expect(issues(withPage({ from: "link", arg: "cursor", query_key: "pa ge" }))[0]?.path).toBe("ops[0].page.query_key");
    expect(issues(withPage({ from: "link", arg: "cursor", query_key: "page", link_paths: ["/repositories/*/issues"] }))).toEqual([]);
    expect(issues(withPage({ from: "link", arg: "cursor", query_key: "page", link_paths: ["repositories/*"] }))[0]?.path).toBe("ops[0].page.link_paths[0]");
    expect(issues(withPage({ from: "link", arg: "cursor", query_key: "page", link_paths: ["/a/**/b"] }))[0]?.path).toBe("ops[0].page.link_paths[0]");
    expect(issues(withPage({ from: "header", arg: "cursor" }))[0]?.path).toBe("ops[0].page.from");
    expect(issues(withPage({ from: "link", arg: "cursor", query_key: "page" }, { access: "write", confirm: "Do it" }))).toEqual([
      { path: "ops[0].page", message: "only a read op pages" },
    ]);
  });
});
