import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { forEachPathPlaceholder, parsePathTemplate, pathTemplateProblems } from "./path-template.js";

describe("parsePathTemplate", () => {
  it("splits segments and query pairs", () => {
    expect(parsePathTemplate("/repos/{owner}/{repo}/issues?state={state}&per_page=20")).toEqual({
      ok: true,
      template: {
        segments: [
          { kind: "literal", text: "repos" },
          { kind: "arg", name: "owner" },
          { kind: "arg", name: "repo" },
          { kind: "literal", text: "issues" },
        ],
        query: [
          { key: "state", value: { kind: "arg", name: "state" } },
          { key: "per_page", value: { kind: "literal", text: "20" } },
        ],
      },
    });
  });

  it.each(["/a/%2E", "/a/.%2e", "/%2e%2e/b", "/a/../b", "/a//b", "/a/b%zz", "/a b", "/a?x", "/a?={v}", "/a?k=v=w", "/a/{B}"])("refuses %s", (path) =>
    expect(parsePathTemplate(path).ok).toBe(false),
  );

  it("never accepts a path that leaves its base or names a host (property)", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 30 }), (tail) => {
        const result = parsePathTemplate(`/${tail}`);
        if (!result.ok) return;
        const url = new URL(`https://api.example.com/base/${tail.split("?")[0] ?? ""}`);
        expect(url.origin).toBe("https://api.example.com");
        expect(url.pathname.startsWith("/base/")).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });
});

/** A path spelled from the characters and pieces op paths are made of, placeholders and percent-encodings included. */
const pathLike = fc
  .array(
    fc.oneof(
      { weight: 6, arbitrary: fc.constantFrom("/", "/a", "/b0", "/{id}", "/{id}.json", "/..", "/.", "?k=v", "?k={id}", "&q=1", "&x={name}", "=") },
      {
        weight: 4,
        arbitrary: fc.constantFrom("a", "Z", "0", "-", "_", ".", "~", ":", "@", "!", "*", "%", "%2e", "%20", "{", "}", "{Bad}", "?", "&", "#", "\\", " ", "é"),
      },
    ),
    { maxLength: 10 },
  )
  .map((parts) => `/${parts.join("")}`);

/** What the parsed template says: each placeholder's name and whether it stands in the query. */
function placeholdersOfTemplate(path: string): [string, boolean][] {
  const result = parsePathTemplate(path);
  if (!result.ok) return [];
  return [
    ...result.template.segments.flatMap((segment): [string, boolean][] => (segment.kind === "arg" ? [[segment.name, false]] : [])),
    ...result.template.query.flatMap((pair): [string, boolean][] => (pair.value.kind === "arg" ? [[pair.value.name, true]] : [])),
  ];
}

function placeholdersScanned(path: string): [string, boolean][] {
  const found: [string, boolean][] = [];
  forEachPathPlaceholder(path, (name, inQuery) => found.push([name, inQuery]));
  return found;
}

describe("pathTemplateProblems and forEachPathPlaceholder answer as the parsed template does", () => {
  it.each([
    "/",
    "/user/repos/",
    "/repos/{owner}/{repo}/issues?state={state}&per_page=20",
    "/v1/{name}:batchUpdate",
    "/a/.../b",
    "/a/.well-known",
    "/a?q=x/y?z&k={k}",
    "/user/my%20repos?sort={sort}",
    "/a/..",
    "/a/.?x=1",
    "/a/%2e%2E",
    "//a",
    "/a?",
    "/a?k=v&",
    "/a/{b}c",
    "/a?{k}=v",
    "/a?k=x{v}",
    "",
    "a",
  ])("%s", (path) => {
    const ok = parsePathTemplate(path).ok;
    expect(pathTemplateProblems(path).length === 0).toBe(ok);
    if (ok) expect(placeholdersScanned(path)).toEqual(placeholdersOfTemplate(path));
  });

  it("on any path-like text (property)", () => {
    fc.assert(
      fc.property(pathLike, (path) => {
        const ok = parsePathTemplate(path).ok;
        expect(pathTemplateProblems(path).length === 0).toBe(ok);
        if (ok) expect(placeholdersScanned(path)).toEqual(placeholdersOfTemplate(path));
      }),
      { numRuns: 20000 },
    );
  });
});
