import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalJson } from "./canonical-json.js";

describe("canonicalJson (RFC 8785)", () => {
  it("sorts keys by UTF-16 code units and writes no whitespace", () => {
    expect(canonicalJson({ b: 1, a: [true, null, "x"], "\u20ac": 1, "\ud83d\ude00": 2, "\u0080": 3 })).toBe(
      '{"a":[true,null,"x"],"b":1,"\u0080":3,"\u20ac":1,"\ud83d\ude00":2}',
    );
  });

  it("serialises numbers as ECMAScript does (RFC 8785 appendix B samples)", () => {
    expect(canonicalJson([1e21, 1e-7, 0.000001, -0, 333333333.3333333, 9007199254740991])).toBe("[1e+21,1e-7,0.000001,0,333333333.3333333,9007199254740991]");
  });

  it("refuses what JSON cannot hold", () => {
    expect(() => canonicalJson(Number.NaN)).toThrow(TypeError);
    expect(() => canonicalJson({ a: () => 1 })).toThrow(TypeError);
  });

  it("parses back to the same value and does not depend on key order (property)", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = canonicalJson(value);
        expect(canonicalJson(JSON.parse(text))).toBe(text);
        expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(value)));
      }),
    );
  });
});
