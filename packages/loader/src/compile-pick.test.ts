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

describe("compilePick's generated field reads", () => {
  // The loop the generated code replaced: each field through the generic walk, then copied.
  const reference = (fields: string[]) => (object: Record<string, unknown>, depth: number) => {
    const out = Object.setPrototypeOf({}, null) as Record<string, unknown>;
    for (const field of fields) {
      const value = referenceWalk(object, field.split("."), 0, depth);
      if (value !== undefined) out[field] = JSON.parse(JSON.stringify(value));
    }
    return out;
  };
  function referenceWalk(value: unknown, segments: string[], index: number, depth: number): unknown {
    if (depth > MAX_PICK_DEPTH) throw new PickError();
    if (index === segments.length) return value;
    if (Array.isArray(value)) {
      const out: unknown[] = [];
      for (const item of value) {
        const found = referenceWalk(item, segments, index, depth + 1);
        if (found !== undefined) out.push(found);
      }
      return out;
    }
    if (value === null || typeof value !== "object") return undefined;
    const key = segments[index] as string;
    return Object.hasOwn(value, key) ? referenceWalk((value as Record<string, unknown>)[key], segments, index + 1, depth + 1) : undefined;
  }

  const names = fc.constantFrom("a", "b", "id", "name", "value", "constructor", "toString", "__proto__", "with space", "é");
  const leaf = fc.oneof(fc.string({ maxLength: 3 }), fc.integer(), fc.boolean(), fc.constant(null));
  const tree = fc.letrec((tie) => ({
    node: fc.oneof({ depthSize: "small" }, leaf, fc.array(tie("node"), { maxLength: 3 }), fc.dictionary(names, tie("node"), { maxKeys: 4 })),
  })).node;
  const field = fc.array(names, { minLength: 1, maxLength: 4 }).map((segments) => segments.join("."));

  it("gives every object what the loop over walk gave, arrays on the way and inherited names included", () => {
    fc.assert(
      fc.property(fc.uniqueArray(field, { minLength: 1, maxLength: 5 }), fc.dictionary(names, tree, { maxKeys: 6 }), (fields, object) => {
        // JSON text parsed, as a provider's answer is: `__proto__` is then an own key like any other.
        const parsed = JSON.parse(JSON.stringify(object)) as Record<string, unknown>;
        const picked = compilePick({ fields })(parsed);
        expect(JSON.stringify(picked)).toBe(JSON.stringify(reference(fields)(parsed, 0)));
      }),
      { numRuns: 3000 },
    );
  });

  it("still refuses a path that would pass the depth bound", () => {
    let deep: unknown = "leaf";
    for (let level = 0; level < MAX_PICK_DEPTH + 2; level += 1) deep = [deep];
    const pick = compilePick({ fields: ["a.b"] });
    expect(() => pick({ a: deep })).toThrow(PickError);
  });
});
