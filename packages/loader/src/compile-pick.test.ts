import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compilePick, MAX_PICK_DEPTH, PickError } from "./compile-pick.js";

describe("compilePick", () => {
  const repos = [
    { full_name: "a/b", private: false, owner: { login: "octocat", id: 1 }, extra: "x".repeat(100) },
    { full_name: "c/d", owner: { id: 2 } },
    "not an object",
  ];

  it("reduces each object of an array to the fields, flattening nested paths and omitting missing ones", () => {
    const pick = compilePick({ fields: ["full_name", "private", "owner.login"] });
    expect(JSON.parse(JSON.stringify(pick(repos)))).toEqual([{ full_name: "a/b", private: false, "owner.login": "octocat" }, { full_name: "c/d" }]);
  });

  it("descends into root first, and reduces a single object", () => {
    const pick = compilePick({ root: "data.issue", fields: ["title"] });
    expect(JSON.parse(JSON.stringify(pick({ data: { issue: { title: "T", body: "secret" } } })))).toEqual({ title: "T" });
  });

  it("returns the whole value at root when no field is listed, and null when root is missing", () => {
    const pick = compilePick({ root: "data.items" });
    expect(JSON.parse(JSON.stringify(pick({ data: { items: [1, { a: 2 }] } })))).toEqual([1, { a: 2 }]);
    expect(pick({ data: {} })).toBeNull();
  });

  it("maps a path through an array", () => {
    const pick = compilePick({ fields: ["title", "labels.name"] });
    const out = pick({ title: "T", labels: [{ name: "bug", color: "red" }, { color: "blue" }, { name: "p1" }] });
    expect(JSON.parse(JSON.stringify(out))).toEqual({ title: "T", "labels.name": ["bug", "p1"] });
  });

  it("never walks inherited properties and builds null-prototype output", () => {
    const body = JSON.parse('{"__proto__": {"polluted": true}, "constructor": {"prototype": 1}, "name": "n"}');
    const out = compilePick({ fields: ["name", "polluted", "toString"] })(body) as Record<string, unknown>;
    expect(Object.getPrototypeOf(out)).toBeNull();
    expect(Object.keys(out)).toEqual(["name"]);
    const whole = compilePick({ root: "__proto__" })(body) as Record<string, unknown>;
    expect(Object.getPrototypeOf(whole)).toBeNull();
    expect(whole.polluted).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("refuses values nested past the depth bound without overflowing the stack", () => {
    let deep: unknown = 1;
    for (let depth = 0; depth < 100_000; depth += 1) deep = { a: deep };
    expect(() => compilePick({ root: "a" })(deep)).toThrow(PickError);
    let deepArray: unknown = [1];
    for (let depth = 0; depth < 100_000; depth += 1) deepArray = [deepArray];
    expect(() => compilePick({ fields: ["a"] })({ a: deepArray })).toThrow(PickError);
    let shallow: unknown = 1;
    for (let depth = 0; depth < MAX_PICK_DEPTH - 2; depth += 1) shallow = { a: shallow };
    expect(() => compilePick({ root: "a" })(shallow)).not.toThrow();
  });

  it("output always serialises and holds only the listed keys (property)", () => {
    const pick = compilePick({ fields: ["a", "b.c"] });
    const onlyListedKeys = (item: unknown) => typeof item === "object" && item !== null && Object.keys(item).every((key) => key === "a" || key === "b.c");
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const out = pick(value);
        expect(typeof JSON.stringify(out)).toBe("string");
        if (out === null) return;
        if (Array.isArray(out)) expect(out.every(onlyListedKeys)).toBe(true);
        else expect(onlyListedKeys(out)).toBe(true);
      }),
    );
  });
});
