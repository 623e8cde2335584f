import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { cursorFromLink, leadsOn, leadsOnByParsing, relIsNext, relIsNextByParsing } from "./link-cursor.js";

/** What a URL parser makes of the link: the answer cursorFromLink gives for every target. */
function byUrlParser(target: string, requestUrl: string, queryKey: string): string | undefined {
  let next: URL;
  let request: URL;
  try {
    request = new URL(requestUrl);
    next = new URL(target, request);
  } catch {
    return undefined;
  }
  if (next.origin !== request.origin || next.username !== "" || next.password !== "" || next.pathname !== request.pathname) return undefined;
  const cursor = next.searchParams.get(queryKey);
  return cursor === null || cursor === "" ? undefined : cursor;
}

const requests = [
  "https://api.github.com/user/repos?sort=updated&per_page=30",
  "https://api.github.com/repositories/1300192/issues",
  "https://example.com:8443/a/b",
];
/** Pieces of a link that sit on both sides of what reads as written: percent signs, dots, `+`, quotes, fragments, spaces, upper case. */
const piece = fc.constantFrom("a", "page", "=", "&", "?", "/", ".", "..", "%2e", "%41", "+", "'", "#", "x y", "A", "é", ";", ":", "@", "2", "", "//");

describe("cursorFromLink without a URL parser", () => {
  it("gives what a URL parser gives for links on the request's own origin and path", () => {
    fc.assert(
      fc.property(fc.constantFrom(...requests), fc.array(piece, { maxLength: 8 }), fc.constantFrom("page", "a", "cursor"), (request, pieces, key) => {
        const path = request.slice(0, request.includes("?") ? request.indexOf("?") : request.length);
        for (const target of [`${path}?${pieces.join("")}`, `${path}${pieces.join("")}`, `${request}&${pieces.join("")}`]) {
          expect(cursorFromLink(`<${target}>; rel="next"`, request, key)).toBe(byUrlParser(target, request, key));
        }
      }),
      { numRuns: 2000 },
    );
  });

  it("reads GitHub's link as before", () => {
    const request = "https://api.github.com/user/repos?sort=updated&per_page=30";
    const link = '<https://api.github.com/user/repos?sort=updated&per_page=30&page=2>; rel="next", <https://api.github.com/user/repos?page=5>; rel="last"';
    expect(cursorFromLink(link, request, "page")).toBe("2");
    expect(cursorFromLink('<https://api.github.com/user/repos?page=&page=3>; rel="next"', request, "page")).toBeUndefined();
    expect(cursorFromLink('<https://api.github.com/user/repos?page>; rel="next"', request, "page")).toBeUndefined();
    expect(cursorFromLink('<https://api.github.com/user/repos/?page=2>; rel="next"', request, "page")).toBeUndefined();
    expect(cursorFromLink('<https://api.github.com/user/./repos?page=2>; rel="next"', request, "page")).toBe("2");
    expect(cursorFromLink('<https://API.github.com/user/repos?page=a+b>; rel="next"', request, "page")).toBe("a b");
  });
});

/** Pieces of a link's parameters around the usual `; rel="next"`: spaces, tabs, quotes, commas, other parameters, other cases. */
const parameterPiece = fc.constantFrom(
  " ",
  "\t",
  ";",
  ",",
  "=",
  '"',
  "rel",
  "REL",
  "next",
  "Next",
  "last",
  "prev",
  "results",
  "false",
  "true",
  '"next"',
  'rel="next"',
  "a",
);

describe("a next link's parameters in the usual spelling", () => {
  it("give what parsing them gives, for the usual spelling and every near miss", () => {
    const usual = ['; rel="next"', '; rel="next", ', ' ; rel="next" ,', ';rel="next",', '; rel="next"   ', '  ;  rel="next"'];
    for (const parameters of usual) {
      expect(relIsNext(parameters)).toBe(true);
      expect(relIsNextByParsing(parameters)).toBe(true);
      expect(leadsOn(parameters)).toBe(true);
      expect(leadsOnByParsing(parameters)).toBe(true);
    }
    fc.assert(
      fc.property(
        fc.constantFrom(...usual, ""),
        fc.array(parameterPiece, { maxLength: 8 }),
        fc.array(parameterPiece, { maxLength: 3 }),
        (base, after, before) => {
          for (const parameters of [`${base}${after.join("")}`, `${before.join("")}${base}`, after.join("")]) {
            expect(relIsNext(parameters)).toBe(relIsNextByParsing(parameters));
            expect(leadsOn(parameters)).toBe(leadsOnByParsing(parameters));
          }
        },
      ),
      { numRuns: 3000 },
    );
  });

  it("still reads Sentry's last page as the end", () => {
    const request = "https://sentry.io/api/0/projects/";
    expect(
      cursorFromLink('<https://sentry.io/api/0/projects/?cursor=0:100:0>; rel="next"; results="false"; cursor="0:100:0"', request, "cursor"),
    ).toBeUndefined();
    expect(cursorFromLink('<https://sentry.io/api/0/projects/?cursor=0:100:0>; rel="next"; results="true"; cursor="0:100:0"', request, "cursor")).toBe(
      "0:100:0",
    );
  });
});
