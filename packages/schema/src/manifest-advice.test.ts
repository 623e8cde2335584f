import { describe, expect, it } from "vitest";
import { manifestAdvice, MANIFEST_ADVICE_RULES } from "./manifest-advice.js";
import { parseManifest } from "./parse-manifest.js";
import type { Manifest } from "./manifest-schema.js";

const base = {
  schema: 1,
  id: "acme",
  name: "Acme",
  category: "development",
  auth: { kind: "pat", base: "https://api.acme.example", authorization: "Bearer", pat_help: "https://acme.example/tokens" },
  errors: { message: "error.message" },
};
const list = { id: "things.list", label: "List things", access: "read", method: "GET", path: "/things", pick: { fields: ["id"] } };
const get = {
  id: "things.get",
  label: "Get a thing",
  access: "read",
  method: "GET",
  path: "/things/{id}",
  args: { id: { required: true } },
  pick: { fields: ["id"] },
};
const create = {
  id: "things.create",
  label: "Create a thing",
  access: "write",
  method: "POST",
  path: "/things",
  args: { name: { required: true } },
  body_json: { name: "{name}" },
  confirm: "Create the thing {name}?",
};

function manifest(ops: unknown[], extra: Record<string, unknown> = {}): Manifest {
  const parsed = parseManifest({ ...base, ...extra, ops });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
  return parsed.manifest;
}
const rules = (value: Manifest) => manifestAdvice(value).map((advice) => `${advice.rule} ${advice.path}`);

describe("a read's confirm line (operation rule)", () => {
  it("is refused, at the op's confirm", () => {
    const parsed = parseManifest({ ...base, ops: [{ ...list, confirm: "List the things?" }, get, create] });
    expect(parsed.ok).toBe(false);
    expect(parsed.ok ? [] : parsed.issues).toContainEqual({
      path: "ops[0].confirm",
      message: "a read carries no confirm line: reads run with no tap, so the member would never see it (make the op a write if it changes something)",
    });
  });

  it("search is a read's mark alone", () => {
    const parsed = parseManifest({ ...base, ops: [list, get, { ...create, search: true }] });
    expect(parsed.ok ? [] : parsed.issues).toContainEqual({ path: "ops[2].search", message: "only a read is a search" });
  });
});

describe("manifestAdvice: the catalog's rules", () => {
  it("has nothing to say about two picking GET reads, a write and an error dialect", () => {
    expect(manifestAdvice(manifest([list, get, create]))).toEqual([]);
  });

  it("read-method: warns on a read sent with POST, not on one marked search, a GraphQL query or a search verb", () => {
    const post = { ...get, id: "things.fetch", method: "POST", path: "/things/fetch", body_json: { id: "{id}" } };
    expect(rules(manifest([list, post, create]))).toEqual(["read-method ops[1].method"]);
    expect(rules(manifest([list, { ...post, search: true }, create]))).toEqual([]);
    expect(rules(manifest([list, { ...post, id: "things.search_all" }, create]))).toEqual([]);
    expect(
      rules(manifest([list, { ...post, body_json: { query: "query($id: String!) { thing(id: $id) { id } }", variables: { id: "{id}" } } }, create])),
    ).toEqual([]);
    // A GraphQL mutation is no query: it stays a warning.
    expect(rules(manifest([list, { ...post, body_json: { query: "mutation { deleteThing }" } }, create]))).toEqual(["read-method ops[1].method"]);
  });

  it("two-reads, one-write, read-picks and error-dialect, each named", () => {
    const { pick: _pick, ...unpicked } = list;
    const advice = manifestAdvice(manifest([unpicked], { errors: undefined }));
    expect(advice.map((item) => `${item.rule} ${item.path}`)).toEqual(["two-reads ops", "one-write ops", "read-picks ops[0]", "error-dialect errors"]);
    expect(advice[0]?.message).toBe("has 1 read; the catalog wants at least two");
  });

  it("names each rule it can give, with what it asks", () => {
    expect(Object.keys(MANIFEST_ADVICE_RULES)).toEqual(["read-method", "two-reads", "one-write", "read-picks", "error-dialect"]);
  });
});
