import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { baseUrlProblem, parsedBaseProblem } from "./base-url.js";

/** Bases spelled from the pieces hosts and path prefixes are made of, valid and not. */
const baseLike = fc
  .tuple(
    fc.constantFrom("https://", "https://", "https://", "http://", "HTTPS://", "https:/"),
    fc.array(
      fc.constantFrom(
        "api",
        "a",
        "b0",
        "example",
        "com",
        "io",
        "-",
        "x-y",
        ".",
        "0",
        "1",
        "0x1f",
        "xn--bcher-kva",
        "xn--",
        "COM",
        "é",
        "_",
        ":443",
        ":8080",
        "@",
        "u:p@",
      ),
      {
        minLength: 1,
        maxLength: 7,
      },
    ),
    fc.array(fc.constantFrom("/", "/v1", "/rest", "/api/2", "/.", "/..", "/%2e", "/a b", "/x:y", "/~u", "?q", "#f", "/é"), { maxLength: 3 }),
  )
  .map(([scheme, host, path]) => `${scheme}${host.join("")}${path.join("")}`);

describe("baseUrlProblem answers the usual spelling without the URL parser, as the parser would", () => {
  it.each([
    "https://api.example.com",
    "https://api.example.com/v2",
    "https://api.example.com/rest/api/3",
    "https://api.example.com/",
    "https://api.example.com/v1/.",
    "https://api.example.com/..",
    "https://localhost.com",
    "https://api.local",
    "https://1.2.3.4",
    "https://a.0x1f",
    "https://api.xn--bcher-kva.example",
    "https://api.xn--zz.example",
    "https://a-.example.com",
    "https://-a.example.com",
    `https://${"a".repeat(64)}.example.com`,
    "https://api",
  ])("%s", (base) => {
    expect(baseUrlProblem(base)).toBe(parsedBaseProblem(base));
  });

  it("on any base-like text (property)", () => {
    fc.assert(
      fc.property(baseLike, (base) => {
        expect(baseUrlProblem(base)).toBe(parsedBaseProblem(base));
      }),
      { numRuns: 20000 },
    );
  });
});
