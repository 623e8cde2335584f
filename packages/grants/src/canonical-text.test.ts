import { canonicalJson } from "@eleven-integrations/schema";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalParts, canonicalText } from "./canonical-text.js";
import { utf8OfParts } from "./text-bytes.js";

/** `canonicalJson`'s answer, or the class of what it threw. */
function outcome(serialise: (value: unknown) => string, value: unknown): string {
  try {
    return serialise(value);
  } catch (error) {
    return `threw ${(error as Error).constructor.name}`;
  }
}

const same = (value: unknown) => expect(outcome(canonicalText, value)).toBe(outcome(canonicalJson, value));

describe("canonicalText: canonicalJson's text, made by JSON.stringify where the keys are already sorted", () => {
  it("is canonicalJson's text for JSON parsed from canonical text, whose integer-like keys the engine enumerates first", () => {
    const parsed = JSON.parse(canonicalJson({ errors: { codes: { "7003": "a", "971": "b", "10": "c", "9": "d", x: 1 } }, id: "demo", ops: [{ b: 1, a: 2 }] }));
    expect(Object.keys(parsed.errors.codes)).toEqual(["9", "10", "971", "7003", "x"]);
    expect(canonicalText(parsed)).toBe(canonicalJson(parsed));
    expect(canonicalText(parsed)).not.toBe(JSON.stringify(parsed));
  });

  it("agrees on keys and strings that sort or escape unlike ASCII: non-ASCII, astral, escapes, lone surrogates, __proto__", () => {
    same({ é: 1, e: 2, "€": 3, "😀": 4, "\uffff": 5, Z: 6, "": 7, " ": 8 });
    same({ "\ud83d": "lone high", "\ude00": "lone low", "a\u0000b": "nul\u0007\b\f\n\r\t", '"': "\\", "\u2028": "\u2029" });
    same(JSON.parse('{"__proto__": {"b": 1, "a": 2}, "a": [1, {"d": 0, "c": null}]}'));
    same(Object.assign(Object.create(null), { b: 1, a: 2 }));
  });

  it("agrees on numbers: exponents, negative zero, the largest and smallest, integers past 2^53", () => {
    same([0, -0, 1e21, 1e-7, 123456789012345680000, 5e-324, 1.7976931348623157e308, 0.1 + 0.2, -1.5, 2 ** 53 + 2, 100, 1e20]);
    same({ b: [1e21, { z: -0 }], a: 0.000001 });
  });

  it("throws as canonicalJson does where JSON.stringify would write something: non-finite numbers, undefined in arrays, functions, bigints, symbols", () => {
    for (const value of [NaN, [Infinity], [1, undefined], { a: () => 1 }, { a: 1n }, [Symbol("s")], { b: { a: -Infinity } }]) {
      expect(outcome(canonicalJson, value)).toMatch(/^threw TypeError/);
      same(value);
    }
  });

  it("agrees on what is not plain JSON data: undefined properties, toJSON, dates, maps, typed arrays, class instances", () => {
    same({ b: undefined, a: 1, c: { d: undefined } });
    same({ toJSON: "not a function", a: 1 });
    same({
      a: new Date(0),
      b: new Map([[1, 2]]),
      c: new Uint8Array([3, 1, 2]),
      d: new (class Point {
        y = 1;
        x = 2;
      })(),
    });
    same({ a: { toJSON: () => "replaced", b: 1 } });
  });

  it("agrees with canonicalJson on arbitrary JSON values, parsed back from their canonical text or not", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        same(value);
        same(JSON.parse(canonicalJson(value)));
        const parts = canonicalParts(value);
        expect(parts.join("")).toBe(canonicalJson(value));
        expect(Buffer.from(utf8OfParts(parts)).equals(Buffer.from(canonicalJson(value), "utf8"))).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it("gives pieces whose UTF-8, written piece by piece, is the canonical text's", () => {
    const value = JSON.parse(
      canonicalJson({
        b: [
          { z: 1, a: "“é”" },
          { "10": 1, "9": 2 },
        ],
        a: "😀\u2028",
        c: { y: [true, null, -0.5] },
      }),
    );
    const parts = canonicalParts(value);
    expect(parts.length).toBeGreaterThan(1);
    expect(parts.join("")).toBe(canonicalJson(value));
    expect(Buffer.from(utf8OfParts(parts)).equals(Buffer.from(canonicalJson(value), "utf8"))).toBe(true);
  });
});
