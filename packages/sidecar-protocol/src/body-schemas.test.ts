import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { runBodySchema, searchBodySchema, wellFormedOp } from "./body-schemas.js";
import { parseBody } from "./parse-body.js";

describe("parseBody", () => {
  it("takes a run body as sent", () => {
    const body = { grant: "eg1.x", op: "repos.list", args: { per_page: "2" }, page: "p1" };
    expect(parseBody(runBodySchema, body)).toEqual({ ok: true, value: body });
  });

  it("names each unknown key as its own issue, and never coerces a type", () => {
    const result = parseBody(runBodySchema, { grant: "eg1.x", op: "repos.list", args: { per_page: 2 }, extra: 1, other: true });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.issues.map((issue) => issue.path).sort()).toEqual(["args.per_page", "extra", "other"]);
    expect(result.issues.find((issue) => issue.path === "extra")?.message).toBe("unknown key");
  });

  it("refuses an op that is no op id", () => {
    for (const op of ["repos", "Repos.list", "repos.list.x", `a.${"b".repeat(100)}`]) {
      const result = parseBody(runBodySchema, { grant: "eg1.x", op });
      expect(result.ok).toBe(false);
      expect(wellFormedOp({ op })).toBeNull();
    }
    expect(wellFormedOp({ op: "repos.list" })).toBe("repos.list");
  });

  it("counts the search text in code points: 200 emoji pass, 201 do not", () => {
    const emoji = "\u{1F600}";
    expect(parseBody(searchBodySchema, { q: emoji.repeat(200), grants: [] }).ok).toBe(true);
    const refused = parseBody(searchBodySchema, { q: emoji.repeat(201), grants: [] });
    expect(refused).toEqual({ ok: false, issues: [{ path: "q", message: "must be at most 200 characters" }] });
  });

  it("refuses every body with a non-string arg value, naming the arg's path", () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z]{1,10}$/), fc.oneof(fc.integer(), fc.boolean(), fc.constant(null), fc.array(fc.string())), (name, value) => {
        const result = parseBody(runBodySchema, { grant: "eg1.x", op: "repos.list", args: { [name]: value } });
        expect(result.ok).toBe(false);
        if (result.ok) return;
        expect(result.issues).toHaveLength(1);
        expect(result.issues[0]?.path).toBe(`args.${name}`);
      }),
    );
  });
});
