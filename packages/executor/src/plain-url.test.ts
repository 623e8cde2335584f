import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readsAsWritten } from "./plain-url.js";

/** The parser's reading of the URL, compared with what was written. */
function parserAgrees(origin: string, pathname: string, query: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(`${origin}${pathname}${query === "" ? "" : `?${query}`}`);
  } catch {
    return false;
  }
  return (
    parsed.origin === origin &&
    parsed.pathname === pathname &&
    parsed.search === (query === "" ? "" : `?${query}`) &&
    parsed.hash === "" &&
    parsed.username === "" &&
    parsed.password === ""
  );
}

/** Mostly pieces that keep a URL plain, now and then one the parser changes or refuses. */
const mostly = (plain: readonly string[], tricky: readonly string[]) =>
  fc.oneof({ arbitrary: fc.constantFrom(...plain), weight: 12 }, { arbitrary: fc.constantFrom(...tricky), weight: 1 });
const hostPiece = mostly(
  ["api", "github", "com", "a", "z9", "b-c", "x1"],
  ["-", "0", "1", "255", "0x7f", "xn--", "xn--a", "xn--p1ai", "A", "", "é", "_", "%41", "@", ":"],
);
const portPiece = mostly([""], [":443", ":8443", ":0", ":99999", ":"]);
const pathPiece = mostly(
  ["/", "user", "repos", "a.b", "%2F", "%41", "%20", "~", "@", ":", ";", "!", "$", "&", "'", "(", ")", "*", "+", ",", "="],
  [".", "..", "%2e", "%2E", "%zz", "%", "\\", "?", "#", " ", "\t", "é", "{id}", '"', "<", "^", "`", "|"],
);
const queryPiece = mostly(
  ["sort", "=", "&", "updated", "per_page", "30", "%20", "%2B", "/", "?", ":", "@", "!", "$", "(", ")", "*", "+", ",", ";", "~"],
  ["#", "'", " ", "%", "%2", "é", '"', "<", ">", "\\", "^", "`", "{", "\n"],
);

describe("readsAsWritten", () => {
  it("holds for the usual URLs the executor builds", () => {
    expect(readsAsWritten("https://api.github.com", "/user/repos", "sort=updated&per_page=30")).toBe(true);
    expect(readsAsWritten("https://slack.com", "/api/conversations.list", "types=public_channel&exclude_archived=true&limit=200")).toBe(true);
    expect(readsAsWritten("https://api.github.com", "/repos/octo-cat/hello.world/issues/12", "")).toBe(true);
    expect(readsAsWritten("https://acme.zendesk.com", "/api/v2/tickets/a%20b%2F.json", "")).toBe(true);
  });

  it("leaves every spelling the parser would change to the parser", () => {
    for (const [origin, pathname, query] of [
      ["https://api.github.com:443", "/a", ""],
      ["https://API.github.com", "/a", ""],
      ["https://1.2.3.4", "/a", ""],
      ["https://example.0x7f", "/a", ""],
      ["https://xn--p1ai.example", "/a", ""],
      ["http://example.com", "/a", ""],
      ["https://example.com", "/a/../b", ""],
      ["https://example.com", "/a/%2e%2E/b", ""],
      ["https://example.com", "/a/.", ""],
      ["https://example.com", "/a\\b", ""],
      ["https://example.com", "/a b", ""],
      ["https://example.com", "/a", "b#c"],
      ["https://example.com", "/a", "b c"],
      ["https://example.com", "", ""],
    ] as const) {
      expect(readsAsWritten(origin, pathname, query)).toBe(false);
    }
  });

  it("answers yes only where the URL parser reads the URL back as written", () => {
    let plain = 0;
    fc.assert(
      fc.property(
        fc.array(hostPiece, { minLength: 1, maxLength: 5 }),
        portPiece,
        fc.array(pathPiece, { maxLength: 8 }),
        fc.array(queryPiece, { maxLength: 8 }),
        (host, port, path, query) => {
          const origin = `https://${host.join(".")}${port}`;
          const pathname = `/${path.join("")}`;
          if (!readsAsWritten(origin, pathname, query.join(""))) return;
          plain += 1;
          expect(parserAgrees(origin, pathname, query.join(""))).toBe(true);
        },
      ),
      { numRuns: 20_000 },
    );
    // The property means something only if a good share of the cases took the fast answer.
    expect(plain).toBeGreaterThan(1000);
  });
});
