import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { placeholderNames, placeholdersDeclared, PLACEHOLDER } from "./placeholders.js";
import { LINE_PLACEHOLDER, splitLine, type LinePart } from "./preview-line.js";

// The scanners by hand must find exactly what the exported patterns find: these are the patterns' own answers.
const namesByPattern = (template: string): string[] => [...template.matchAll(PLACEHOLDER)].map((match) => match[1] as string);

function partsByPattern(line: string): LinePart[] {
  const parts: LinePart[] = [];
  let last = 0;
  for (const match of line.matchAll(LINE_PLACEHOLDER)) {
    if (match.index > last) parts.push({ kind: "literal", text: line.slice(last, match.index) });
    parts.push({ kind: "field", path: match[1] as string });
    last = match.index + match[0].length;
  }
  if (last < line.length) parts.push({ kind: "literal", text: line.slice(last) });
  return parts;
}

/** Texts made of the characters that matter to both patterns, so braces, dots and names meet often. */
const tricky = fc.string({ unit: fc.constantFrom("{", "}", ".", "a", "z", "B", "0", "9", "_", "-", " ", "é", "{a}", "{a.b}", "}{"), maxLength: 40 });

describe("placeholder scanning without regular expressions", () => {
  it("placeholderNames finds what PLACEHOLDER finds, in order", () => {
    fc.assert(
      fc.property(fc.oneof(tricky, fc.string()), (template) => {
        expect(placeholderNames(template)).toEqual(namesByPattern(template));
      }),
      { numRuns: 3000 },
    );
    expect(placeholderNames("{{a}} {b_1} {C} {1x} {x-y} {ok")).toEqual(["a", "b_1"]);
  });

  it("splitLine splits where LINE_PLACEHOLDER matches", () => {
    fc.assert(
      fc.property(fc.oneof(tricky, fc.string()), (line) => {
        expect(splitLine(line)).toEqual(partsByPattern(line));
      }),
      { numRuns: 3000 },
    );
    expect(splitLine("{a.} {.a} {a..b} {user.login}!")).toEqual([
      { kind: "literal", text: "{a.} {.a} {a..b} " },
      { kind: "field", path: "user.login" },
      { kind: "literal", text: "!" },
    ]);
  });

  it("placeholdersDeclared is whether every name placeholderNames finds is an own key", () => {
    const args = { owner: 1, repo: 2 };
    fc.assert(
      fc.property(fc.oneof(tricky, fc.constantFrom("{owner}/{repo}", "{owner}/{constructor}", "{owner}{x}", "plain")), (template) => {
        expect(placeholdersDeclared(template, args)).toBe(placeholderNames(template).every((name) => Object.hasOwn(args, name)));
      }),
      { numRuns: 2000 },
    );
    // An inherited name is not a declared one.
    expect(placeholdersDeclared("{constructor}", {})).toBe(false);
  });
});
