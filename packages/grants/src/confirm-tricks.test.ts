import { describe, expect, it } from "vitest";
import { findLookAlike } from "./look-alike.js";
import { confirmDetails, renderConfirm } from "./render-confirm.js";

// Each test is an attack: a value built to make the member read something other than what runs.
const TEMPLATE = "Send {amount} to “{to}” now";

describe("invisible letters: shown as U+FFFD", () => {
  const invisible: [string, string][] = [
    ["HANGUL CHOSEONG FILLER", "\u115F"],
    ["HANGUL JUNGSEONG FILLER", "\u1160"],
    ["HANGUL FILLER", "\u3164"],
    ["HALFWIDTH HANGUL FILLER", "\uFFA0"],
    ["BRAILLE PATTERN BLANK", "\u2800"],
    ["COMBINING GRAPHEME JOINER", "\u034F"],
    ["KHMER VOWEL INHERENT AQ", "\u17B4"],
    ["MONGOLIAN FREE VARIATION SELECTOR ONE", "\u180B"],
    ["VARIATION SELECTOR-1", "\uFE00"],
    ["VARIATION SELECTOR-17", "\u{E0100}"],
    ["TAG LATIN CAPITAL LETTER A", "\u{E0041}"],
    ["MUSICAL SYMBOL NULL NOTEHEAD", "\u{1D159}"],
    ["INVISIBLE TIMES", "\u2062"],
    ["unassigned default-ignorable U+2065", "\u2065"],
    ["a private-use character", "\uE000"],
    ["a noncharacter", "\uFDD0"],
    ["an unassigned code point", "\u{2FFFD}"],
  ];
  for (const [name, character] of invisible) {
    it(`${name} cannot make "alice" and "al${"\u2026"}ice" look the same`, () => {
      const line = renderConfirm(TEMPLATE, { amount: "5 EUR", to: `al${character}ice` });
      expect(line).toBe("Send 5 EUR to “al\uFFFDice” now");
      const details = confirmDetails(TEMPLATE, { amount: "5 EUR", to: `al${character}ice` });
      expect(details).toEqual([
        {
          name: "to",
          value: "al\uFFFDice",
          flags: ["hidden_characters"],
          hidden: [`U+${character.codePointAt(0)?.toString(16).toUpperCase().padStart(4, "0")}`],
        },
      ]);
    });
  }

  it("a value made only of fillers shows as many U+FFFD, not as an empty quote", () => {
    expect(renderConfirm(TEMPLATE, { amount: "5", to: "\u3164\u3164\u2800" })).toBe("Send 5 to “\uFFFD\uFFFD\uFFFD” now");
  });

  it("keeps a presentation selector only in a real emoji variation sequence, never a smuggled run of selectors", () => {
    expect(renderConfirm("{a}", { a: "Thanks \u2764\uFE0F" })).toBe("Thanks \u2764\uFE0F");
    expect(renderConfirm("{a}", { a: "\u2764\uFE0F\uFE01\uFE02" })).toBe("\u2764\uFE0F\uFFFD\uFFFD");
    expect(renderConfirm("{a}", { a: "\uFE0Fx" })).toBe("\uFFFDx");
    // U+1F600 is emoji by default: Unicode defines no variation sequence for it.
    expect(renderConfirm("{a}", { a: "\u{1F600}\uFE0F" })).toBe("\u{1F600}\uFFFD");
  });

  it("a variation selector after a Latin letter does not reach the chip (review: it did)", () => {
    const args = { amount: "5 EUR", to: "al\uFE0Fice" };
    expect(renderConfirm(TEMPLATE, args)).toBe("Send 5 EUR to “al\uFFFDice” now");
    expect(confirmDetails(TEMPLATE, args)).toEqual([{ name: "to", value: "al\uFFFDice", flags: ["hidden_characters"], hidden: ["U+FE0F"] }]);
  });
});

describe("blank-looking spaces: shown as a plain space", () => {
  it("a hair space cannot split a word invisibly, an ideographic space cannot pad", () => {
    expect(renderConfirm("{a}", { a: "pay\u200Apal" })).toBe("pay pal");
    expect(renderConfirm("{a}", { a: "a\u00A0b\u2009c\u3000d\u1680e\u202Ff" })).toBe("a b c d e f");
  });
});

describe("stacks of combining marks: at most three per base, the rest shown as one U+FFFD", () => {
  it("a zalgo stack cannot cover the text around it", () => {
    const zalgo = `A${"\u0336\u0338\u0301\u0300\u0302".repeat(20)}B`;
    expect(renderConfirm("[{a}]", { a: zalgo })).toBe("[A\u0336\u0338\u0301\uFFFDB]");
    expect(confirmDetails("[{a}]", { a: zalgo })[0]?.flags).toEqual(["hidden_characters"]);
  });

  it("keeps ordinary accents (Vietnamese, decomposed é, Hebrew points)", () => {
    expect(renderConfirm("{a}", { a: "Vie\u0323\u0302t" })).toBe("Vie\u0323\u0302t");
    expect(renderConfirm("{a}", { a: "e\u0301" })).toBe("e\u0301");
    expect(renderConfirm("{a}", { a: "\u05E9\u05C1\u05B8" })).toBe("\u2068\u05E9\u05C1\u05B8\u2069");
  });

  it("a value starting with a mark cannot decorate the template's text before it", () => {
    // U+0338 would strike through the opening quote of the template.
    expect(renderConfirm("“{a}”", { a: "\u0338\u0338x" })).toBe("“\uFFFDx”");
  });
});

describe("right-to-left runs: isolated in FSI … PDI", () => {
  it("an Arabic or Hebrew value cannot reorder the amount and the recipient around it", () => {
    const line = renderConfirm("Pay {amount} to {to} for {what}", { amount: "100 EUR", to: "\u05E9\u05DC\u05D5\u05DD 5", what: "rent" });
    expect(line).toBe("Pay 100 EUR to \u2068\u05E9\u05DC\u05D5\u05DD 5\u2069 for rent");
  });

  it("a smuggled override or unbalanced isolate is shown as U+FFFD inside our isolate", () => {
    const line = renderConfirm("{a} ok", { a: "\u0627\u2066\u202E" });
    expect(line).toBe("\u2068\u0627\uFFFD\uFFFD\u2069 ok");
  });

  it("a cut right-to-left value keeps its ellipsis inside the isolate", () => {
    const line = renderConfirm("{a}!", { a: "\u05D0".repeat(200) });
    expect(line).toBe(`\u2068${"\u05D0".repeat(119)}\u2026\u2069!`);
  });

  it("a left-to-right value is not wrapped", () => {
    expect(renderConfirm("{a}", { a: "octocat/hello" })).toBe("octocat/hello");
  });
});

describe("mixed-script look-alikes: shown as typed, flagged in details", () => {
  it("a Cyrillic а inside a Latin word is flagged with its scripts, its skeleton and what it reads as", () => {
    const args = { amount: "5", to: "p\u0430ypal" };
    expect(renderConfirm(TEMPLATE, args)).toBe("Send 5 to “p\u0430ypal” now");
    expect(confirmDetails(TEMPLATE, args)).toEqual([
      { name: "to", value: "p\u0430ypal", flags: ["mixed_script", "look_alike"], scripts: ["Cyrillic", "Latin"], skeleton: "paypal", reads_as: "paypal" },
    ]);
  });

  it("a whole word of Latin-looking Cyrillic letters is flagged look_alike (UTS #39 whole-script confusable)", () => {
    expect(findLookAlike("\u0430\u0440\u0440\u04CF\u0435")).toEqual({
      flags: ["look_alike"],
      scripts: ["Cyrillic"],
      skeleton: "applе".replace("е", "e"),
      reads_as: "apple",
    });
  });

  it("Greek omicron in an email, and Latin beside Cyrillic words, are flagged", () => {
    expect(findLookAlike("admin@ex\u03BFmple.com")?.flags).toEqual(["mixed_script", "look_alike"]);
    expect(findLookAlike("Pay Ivan \u0418\u0432\u0430\u043D")?.flags).toEqual(["mixed_script"]);
  });

  it("does not flag one writing system: Russian, Japanese, Korean, Chinese with Latin, plain English", () => {
    for (const text of [
      "\u041F\u0440\u0438\u0432\u0435\u0442, \u043C\u0438\u0440",
      "東京タワーへ行く",
      "서울 Seoul",
      "iPhone\u624B\u673A",
      "Fix the bug",
      "naïve café",
      "\u05E9\u05DC\u05D5\u05DD",
      "Zoë Ærø",
      "10 × 3 — 5 € • ok",
    ]) {
      expect(findLookAlike(text), text).toBeUndefined();
    }
  });
});

describe("details: everything the line does not fully show", () => {
  it("lists an optional arg given but absent from the line, in full", () => {
    const args = { title: "Fix", body: "x".repeat(3000) };
    expect(renderConfirm("Open “{title}”", args)).toBe("Open “Fix”");
    expect(confirmDetails("Open “{title}”", args)).toEqual([{ name: "body", value: "x".repeat(3000), flags: ["not_in_line"] }]);
  });

  it("lists a value the line cut, whole: the rest of a long comment is not hidden", () => {
    const body = `Looks good to me. ${"padding ".repeat(20)}ALSO: please add @attacker as an admin.`;
    const line = renderConfirm("Comment: “{body}”", { body });
    expect(line).not.toContain("attacker");
    expect(confirmDetails("Comment: “{body}”", { body })).toEqual([{ name: "body", value: body, flags: ["shortened"] }]);
  });

  it("is empty when the line shows every value as it is", () => {
    expect(confirmDetails(TEMPLATE, { amount: "5", to: "alice" })).toEqual([]);
  });

  it("neutralises the detail values the same way as the line, without cutting them", () => {
    const value = `${"\u05D0".repeat(130)}\u202E\u001b[2J`;
    const [detail] = confirmDetails("x", { v: value });
    expect(detail?.value).toBe(`\u2068${"\u05D0".repeat(130)}\uFFFD\uFFFD[2J\u2069`);
    expect(detail?.flags).toEqual(["not_in_line", "hidden_characters"]);
    expect(detail?.hidden).toEqual(["U+202E", "U+001B"]);
  });

  it("never reads inherited properties", () => {
    const args = Object.create({ inherited: "x" }) as Record<string, string>;
    expect(confirmDetails("{inherited}", args)).toEqual([]);
  });
});
