import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parsePathTemplate } from "./path-template.js";

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
