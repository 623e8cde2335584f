import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { cleanProviderText, MAX_PROVIDER_TEXT } from "./clean-provider-text.js";
import { cursorFromLink } from "./link-cursor.js";
import { MAX_CURSOR_BYTES, MAX_PAGE_TOKEN_LENGTH, PageSigner } from "./page-token.js";

const request = "https://api.github.com/repositories/1300192/issues?per_page=2";

describe("cleanProviderText", () => {
  it("never passes on a control, format, separator character or more than 300 code points", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 2000 }), (text) => {
        const cleaned = cleanProviderText(text);
        if (cleaned === undefined) return;
        expect(cleaned).not.toMatch(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}\p{Default_Ignorable_Code_Point}]/u);
        expect([...cleaned].length).toBeLessThanOrEqual(MAX_PROVIDER_TEXT);
        expect(cleaned).toBe(cleaned.trim());
      }),
    );
  });
  it("drops escape sequences whole and keeps the words", () => {
    expect(cleanProviderText("\u001b[1;31mBad\u001b[0m credentials\n\tplease")).toBe("Bad credentials please");
    expect(cleanProviderText("\u200B\u202E")).toBeUndefined();
  });

  it("cleans like a chip value (review finding 11): invisible letters, fillers and a 20-mark stack are neutralised", () => {
    const attack = `Card\u200D declined\u200C: call\u2060 +1\uFEFF 555-0100 ok\uFE0F \u115Fnow Z${"\u0301".repeat(20)}!`;
    const cleaned = cleanProviderText(attack) ?? "";
    expect(cleaned).toBe("Card\uFFFD declined\uFFFD: call\uFFFD +1\uFFFD 555-0100 ok\uFFFD \uFFFDnow Z\u0301\u0301\u0301\uFFFD!");
    expect(cleaned).not.toMatch(/[\u200B-\u200D\u2060\uFEFF\uFE00-\uFE0F\u115F]|\p{M}{4}/u);
  });

  it("keeps a real emoji presentation sequence, not a selector after a letter", () => {
    expect(cleanProviderText("Saved \u2764\uFE0F")).toBe("Saved \u2764\uFE0F");
    expect(cleanProviderText("paypal\uFE0F")).toBe("paypal\uFFFD");
  });
});

describe("cursorFromLink", () => {
  it("takes the declared key of GitHub's documented rel=next link", () => {
    const link =
      '<https://api.github.com/repositories/1300192/issues?per_page=2&page=2>; rel="next", <https://api.github.com/repositories/1300192/issues?per_page=2&page=7715>; rel="last"';
    expect(cursorFromLink(link, request, "page")).toBe("2");
    expect(cursorFromLink(link, request, "per_page")).toBe("2");
    expect(cursorFromLink(link, request, "after")).toBeUndefined();
  });
  it("never answers for a link whose origin or path differs from the request's", () => {
    fc.assert(
      fc.property(fc.webUrl({ withQueryParameters: true, withFragments: true }), (target) => {
        const url = new URL(target);
        const cursor = cursorFromLink(`<${target}>; rel="next"`, request, "page");
        if (url.origin !== "https://api.github.com" || url.pathname !== "/repositories/1300192/issues") expect(cursor).toBeUndefined();
      }),
    );
  });
  it('follows Sentry\'s next link while it says results="true", and stops at results="false" (https://docs.sentry.io/api/pagination/)', () => {
    const issues = "https://sentry.io/api/0/projects/the-interstellar-jurisdiction/pump-station/issues/";
    const more = `<${issues}?&cursor=1420837590000:0:1>; rel="previous"; results="false"; cursor="1420837590000:0:1", <${issues}?&cursor=1420837533000:0:0>; rel="next"; results="true"; cursor="1420837533000:0:0"`;
    const last = `<${issues}?&cursor=1420837590000:0:1>; rel="previous"; results="true"; cursor="1420837590000:0:1", <${issues}?&cursor=1420837533000:0:0>; rel="next"; results="false"; cursor="1420837533000:0:0"`;
    expect(cursorFromLink(more, issues, "cursor")).toBe("1420837533000:0:0");
    expect(cursorFromLink(last, issues, "cursor")).toBeUndefined();
    expect(cursorFromLink(last.replace('results="false"; cursor="1420837533000', 'results=FALSE; cursor="1420837533000'), issues, "cursor")).toBeUndefined();
  });
  it("ignores an over-long header and survives any text", () => {
    expect(cursorFromLink(`<https://api.github.com/repositories/1300192/issues?page=2>; rel="next"${" ".repeat(20_000)}`, request, "page")).toBeUndefined();
    fc.assert(fc.property(fc.string({ maxLength: 500 }), (header) => void cursorFromLink(header, request, "page")));
  });
});

describe("PageSigner", () => {
  const binding = { integration: "slack", op: "conversations.list", manifestHash: "ab".repeat(32), args: { types: "x" }, cursorArg: "cursor" };
  it("opens what it issued, for exactly that binding, and fits 1 KiB for the longest cursor it carries", () => {
    const signer = new PageSigner();
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 200 }), (cursor) => {
        const token = signer.issue(binding, cursor);
        if (token === undefined) return;
        expect(signer.open(token, binding)).toEqual({ ok: true, cursor });
        expect(signer.open(token, { ...binding, op: "users.list" }).ok).toBe(false);
        expect(signer.open(token, { ...binding, manifestHash: "cd".repeat(32) }).ok).toBe(false);
        expect(signer.open(token, { ...binding, args: { types: "y" } }).ok).toBe(false);
        expect(signer.open(token, { ...binding, args: { types: "x", cursor: "ignored" } }).ok).toBe(true);
      }),
      { numRuns: 200 },
    );
    expect(signer.issue(binding, "c".repeat(MAX_CURSOR_BYTES))?.length).toBeLessThanOrEqual(MAX_PAGE_TOKEN_LENGTH);
    expect(signer.issue(binding, "c".repeat(MAX_CURSOR_BYTES + 1))).toBeUndefined();
  });
  it("refuses a key shorter than 32 bytes", () => {
    expect(() => new PageSigner(new Uint8Array(16))).toThrow(TypeError);
  });
});
