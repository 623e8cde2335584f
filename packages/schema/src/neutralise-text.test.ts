import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { HIDDEN_CHARACTER, MAX_COMBINING_MARKS, neutraliseText } from "./neutralise-text.js";
import { isEmojiVariationBase } from "./unicode/emoji-variation.js";

describe("neutraliseText", () => {
  it("shows every invisible character as U+FFFD, one for one, and names it", () => {
    const invisible = "\u200D\u200C\u2060\uFEFF\uFE0F\u115F\u200B\u202E\u2066\u00AD\u{E0041}\u3164";
    const { text, hidden } = neutraliseText(`a${invisible}b`);
    expect(text).toBe(`a${"\uFFFD".repeat([...invisible].length)}b`);
    expect(hidden).toEqual(["U+200D", "U+200C", "U+2060", "U+FEFF", "U+FE0F", "U+115F", "U+200B", "U+202E", "U+2066", "U+00AD", "U+E0041", "U+3164"]);
  });

  it("cuts a stack of combining marks to three, the rest shown as one U+FFFD", () => {
    const { text, hidden } = neutraliseText(`Z${"\u0301".repeat(20)}!`);
    expect(text).toBe(`Z${"\u0301".repeat(MAX_COMBINING_MARKS)}\uFFFD!`);
    expect(hidden).toEqual(["U+0301"]);
  });

  it("keeps a variation selector only where it forms an emoji variation sequence", () => {
    // Unicode defines ❤️, ☺️, #️ and ©️; not a selector on a Latin letter, a digit sequence after a mark, or a second one.
    expect(neutraliseText("\u2764\uFE0F \u263A\uFE0E #\uFE0F\u20E3 \u00A9\uFE0F").text).toBe("\u2764\uFE0F \u263A\uFE0E #\uFE0F\u20E3 \u00A9\uFE0F");
    expect(neutraliseText("a\uFE0F").text).toBe("a\uFFFD");
    expect(neutraliseText("paypal\uFE0E.com").text).toBe("paypal\uFFFD.com");
    expect(neutraliseText("\u2764\uFE0F\uFE0F").text).toBe("\u2764\uFE0F\uFFFD");
    expect(neutraliseText("\u{1F600}\uFE0F").text).toBe("\u{1F600}\uFFFD"); // emoji by default: no sequence defined
    expect(neutraliseText("\uFE0F\u2764").text).toBe("\uFFFD\u2764");
  });

  it("reads the generated table: emoji bases in, letters and ordinary punctuation out", () => {
    for (const codePoint of [0x23, 0x2a, 0x30, 0x39, 0xa9, 0x2764, 0x1f5e8]) expect(isEmojiVariationBase(codePoint)).toBe(true);
    for (const codePoint of [0x41, 0x61, 0x2e, 0x1f600, 0x3a]) expect(isEmojiVariationBase(codePoint)).toBe(false);
  });

  it("shows odd spaces as a plain space and a leading mark as U+FFFD", () => {
    expect(neutraliseText("a\u00A0b\u200Ac\u3000d").text).toBe("a b c d");
    expect(neutraliseText("\u0338x").text).toBe("\uFFFDx");
  });

  it("for any text: nothing hidden survives, no stack over three marks, no selector off an emoji base", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 200 }), (input) => {
        const { text } = neutraliseText(input);
        const characters = [...text];
        let marks = 0;
        characters.forEach((character, index) => {
          const codePoint = character.codePointAt(0) ?? 0;
          if (codePoint === 0xfe0e || codePoint === 0xfe0f) {
            expect(isEmojiVariationBase(characters[index - 1]?.codePointAt(0) ?? -1)).toBe(true);
          } else {
            expect(HIDDEN_CHARACTER.test(character)).toBe(false);
          }
          marks = /\p{M}/u.test(character) ? marks + 1 : 0;
          expect(marks).toBeLessThanOrEqual(MAX_COMBINING_MARKS);
        });
        expect(characters.length).toBeLessThanOrEqual([...input].length);
      }),
    );
  });
});
