import type { CompiledOperation } from "@eleven-integrations/loader";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { buildUrl, MAX_URL_BYTES } from "./build-url.js";
import { checkArgValue } from "./check-arg-value.js";
import { testRegistry } from "./test-support/test-registry.js";

const registry = testRegistry();
const itemsGet = registry.operation("example", "items.get") as CompiledOperation;
const search = registry.operation("example", "items.search") as CompiledOperation;

function refusal(operation: CompiledOperation, args: Record<string, string>): string {
  const result = buildUrl(operation, args);
  if (result.ok) throw new Error(`expected ${JSON.stringify(args)} to be refused, got ${result.url}`);
  return result.problems.map((problem) => problem.message).join("; ");
}

describe("path values", () => {
  it.each([
    ["..", ".."],
    [".", "."],
    ["%2e%2e", "%2e%2e"],
    [".%2E", ".%2E"],
    ["%2E.", "%2E."],
    ["double-encoded %252e%252e", "%252e%252e"],
    ["full-width ．．", "．．"],
    ["full-width ．", "．"],
    ["empty", ""],
    ["a slash", "a/b"],
    ["an absolute URL", "https://evil.example"],
    ["an encoded slash", "a%2Fb"],
    ["a full-width slash", "a／b"],
    ["a backslash", "a\\b"],
    ["an encoded backslash", "a%5cb"],
    ["CR", "a\rb"],
    ["LF", "a\nb"],
    ["encoded CRLF", "a%0d%0ab"],
    ["NUL", "a\u0000b"],
    ["DEL", "a\u007fb"],
    ["a C1 control", "a\u0085b"],
    ["U+2028", "a\u2028b"],
    ["U+202E", "a\u202eb"],
    ["U+2066", "a\u2066b"],
    ["U+200B", "a\u200bb"],
    ["U+FEFF", "\ufeffab"],
    ["a lone high surrogate", "a\ud800b"],
    ["a lone low surrogate", "a\udc00b"],
  ])("refuses %s", (_, value) => {
    expect(refusal(itemsGet, { id: value })).toMatch(/must not/);
  });

  it.each([
    ["a?b#c", "a%3Fb%23c"],
    ["@evil.example", "%40evil.example"],
    ["https:evil.example", "https%3Aevil.example"],
    ["100%", "100%25"],
    ["a!'()*b", "a%21%27%28%29%2Ab"],
    ["a b+c", "a%20b%2Bc"],
    ["...", "..."],
    ["é😀", "%C3%A9%F0%9F%98%80"],
    ["%zz", "%25zz"],
  ])("sends %s encoded inside its one segment", (value, encoded) => {
    const result = buildUrl(itemsGet, { id: value });
    expect(result).toEqual({ ok: true, url: `https://api.example.com/v2/items/${encoded}`, path: `/v2/items/${encoded}` });
    if (result.ok) expect(decodeURIComponent(result.path.split("/")[3] as string)).toBe(value);
  });
});

describe("query values", () => {
  it("keeps a value one value: it can add no pair nor change the manifest's own", () => {
    const result = buildUrl(search, { q: "x&per_page=1000" });
    expect(result.ok && result.path).toBe("/v2/search?q=x%26per_page%3D1000&per_page=20");
    if (result.ok) {
      const params = new URL(result.url).searchParams;
      expect(params.getAll("per_page")).toEqual(["20"]);
      expect(params.get("q")).toBe("x&per_page=1000");
    }
  });

  it("drops the pair of an optional arg not given, and allows an empty value", () => {
    expect(buildUrl(search, { q: "" })).toMatchObject({ ok: true, path: "/v2/search?q=&per_page=20" });
    expect(buildUrl(search, { q: "a", sort: "created" })).toMatchObject({ path: "/v2/search?q=a&per_page=20&sort=created" });
  });

  it("refuses controls, bidirectional and zero-width characters, and lone surrogates", () => {
    for (const value of ["a\r\nb", "a\u0000", "\u202e", "a\u200db", "\udfff"]) {
      expect(refusal(search, { q: value })).toMatch(/must not hold control/);
    }
  });

  it("accepts a slash or dots in a query value, encoded", () => {
    expect(buildUrl(search, { q: "../a/b" })).toMatchObject({ path: "/v2/search?q=..%2Fa%2Fb&per_page=20" });
  });
});

it(`refuses a URL over ${MAX_URL_BYTES} bytes`, () => {
  const operation = registry.operation("example", "items.create") as CompiledOperation;
  expect(buildUrl(operation, {}).ok).toBe(true);
  expect(refusal(search, { q: "é".repeat(1400) })).toMatch(/longer than 8192 bytes/);
});

describe("property: an accepted value never leaves its segment", () => {
  const idArg = itemsGet.args.get("id");
  const anyString = fc.oneof(
    fc.string({ unit: "binary", maxLength: 40 }),
    fc.string({ unit: fc.constantFrom(".", "%", "2", "e", "E", "/", "\\", "?", "#", "@", ":", "．", "\r", "\u0000", "\ud800", "\udc00", "a"), maxLength: 12 }),
    fc.string({ unit: "grapheme", maxLength: 20 }),
  );

  it("keeps the origin, the segment count, and round-trips", () => {
    let accepted = 0;
    fc.assert(
      fc.property(anyString, (value) => {
        if (idArg === undefined || checkArgValue(idArg, value) !== undefined) return;
        const result = buildUrl(itemsGet, { id: value });
        if (!result.ok) return;
        accepted += 1;
        const url = new URL(result.url);
        expect(url.origin).toBe("https://api.example.com");
        const segments = url.pathname.split("/");
        expect(segments).toHaveLength(4);
        expect(segments.slice(0, 3)).toEqual(["", "v2", "items"]);
        expect(decodeURIComponent(segments[3] as string)).toBe(value);
        expect(url.search).toBe("");
        expect(url.hash).toBe("");
      }),
      { numRuns: 3000 },
    );
    expect(accepted).toBeGreaterThan(500);
  });

  it("keeps a query value one value that decodes back", () => {
    fc.assert(
      fc.property(anyString, (value) => {
        const result = buildUrl(search, { q: value });
        if (!result.ok) return;
        const params = new URL(result.url).searchParams;
        expect([...params.keys()]).toEqual(["q", "per_page"]);
        expect(params.get("q")).toBe(value);
        expect(params.get("per_page")).toBe("20");
      }),
      { numRuns: 3000 },
    );
  });

  it("refuses every value holding a control, a bidirectional or zero-width character, or a lone surrogate", () => {
    const bad = fc.constantFrom(
      "\u0000",
      "\r",
      "\n",
      "\u007f",
      "\u0085",
      "\u2028",
      "\u2029",
      "\u200b",
      "\u200d",
      "\u202e",
      "\u2066",
      "\ufeff",
      "\ud800",
      "\udfff",
    );
    fc.assert(
      fc.property(fc.string({ maxLength: 8 }), bad, fc.string({ maxLength: 8 }), (before, character, after) => {
        expect(buildUrl(itemsGet, { id: before + character + after }).ok).toBe(false);
        expect(buildUrl(search, { q: before + character + after }).ok).toBe(false);
      }),
    );
  });
});
