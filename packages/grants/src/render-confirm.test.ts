import fc from "fast-check";
import { isEmojiVariationBase } from "@eleven-integrations/schema";
import { describe, expect, it } from "vitest";
import { renderConfirm } from "./render-confirm.js";

const UNSAFE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/u;
const INVISIBLE = [
  "\u115F",
  "\u1160",
  "\u3164",
  "\uFFA0",
  "\u2800",
  "\u034F",
  "\u17B4",
  "\u17B5",
  "\u180B",
  "\uFE00",
  "\u{E0100}",
  "\u{1D159}",
  "\u{E0041}",
  "\uFFF0",
  "\u2065",
  "\uE000",
  "\u{F0000}",
  "\uFDD0",
  "\uFFFF",
];
const ODD_SPACES = ["\u00A0", "\u1680", "\u2000", "\u2007", "\u2009", "\u200A", "\u202F", "\u205F", "\u3000"];
const MARKS = ["\u0301", "\u0336", "\u0338", "\u20DD", "\u0903", "\u05B4"];
const RTL = ["\u05D0", "\u0627", "\u0710", "\u07C0", "\uFB50", "\u{10900}", "\u{1E900}"];
const BIDI = ["\u202A", "\u202B", "\u202C", "\u202D", "\u202E", "\u2066", "\u2067", "\u2068", "\u2069", "\u200E", "\u200F", "\u061C"];
const ZERO_WIDTH = ["\u200B", "\u200C", "\u200D", "\u2060", "\uFEFF", "\u00AD"];
const BREAKS = ["\r", "\n", "\r\n", "\u2028", "\u2029", "\u0085", "\u000B", "\u000C"];
const CONTROLS = ["\u0000", "\u0007", "\u001B", "\u007F", "\u0080", "\u009B", "\u009F"];

/** Any code point, lone surrogates included, with the dangerous ones and braces often. */
const codePoint = fc.oneof(
  fc.integer({ min: 0, max: 0x10ffff }).map((value) => String.fromCodePoint(value)),
  fc.constantFrom(...BIDI, ...ZERO_WIDTH, ...BREAKS, ...CONTROLS, "{", "}", "\uD800", "\uDFFF", "a", "\u00E9", "\u{1F600}"),
  fc.constantFrom(...INVISIBLE, ...ODD_SPACES, "\uFE0F", "\uFE0E"),
  fc.array(fc.constantFrom(...MARKS), { minLength: 1, maxLength: 8 }).map((marks) => marks.join("")),
  fc.constantFrom(...RTL, "1", " ", "."),
);
const value = fc.array(codePoint, { maxLength: 200 }).map((points) => points.join(""));

function codePoints(text: string): string[] {
  return Array.from(text);
}

describe("renderConfirm", () => {
  it("fills each placeholder with its arg", () => {
    expect(renderConfirm("Create issue {title} in {repo}", { title: "Fix it", repo: "octo/hello" })).toBe("Create issue Fix it in octo/hello");
  });

  it("renders a placeholder whose arg was not given as nothing, and leaves other braces literal", () => {
    expect(renderConfirm("Post{suffix} to {channel}", { channel: "#general" })).toBe("Post to #general");
    expect(renderConfirm("query { viewer { id } } {Name} {1x}", {})).toBe("query { viewer { id } } {Name} {1x}");
  });

  it("never reads inherited properties for a placeholder", () => {
    expect(renderConfirm("[{constructor}]", {})).toBe("[]");
    const args = Object.assign(Object.create({ inherited: "from the prototype" }) as Record<string, string>, { own: "mine" });
    expect(renderConfirm("[{inherited}][{own}]", args)).toBe("[][mine]");
  });

  it("shows U+202E and every other bidi control as U+FFFD, so the text cannot be reordered", () => {
    const line = renderConfirm("Delete {name}?", { name: "report\u202Efdp.exe" });
    expect(line).toBe("Delete report\uFFFDfdp.exe?");
    for (const control of BIDI) expect(renderConfirm("{a}", { a: `x${control}y` })).toBe("x\uFFFDy");
  });

  it("shows zero-width characters, CR/LF, C0 and C1 controls as U+FFFD", () => {
    for (const hidden of [...ZERO_WIDTH, ...CONTROLS, "\r", "\n", "\u2028", "\u2029", "\u0085"]) {
      expect(renderConfirm("to {who}", { who: `a${hidden}b` })).toBe("to a\uFFFDb");
    }
    expect(renderConfirm("{a}", { a: "line1\r\nline2" })).toBe("line1\uFFFD\uFFFDline2");
  });

  it("neutralises the template's own text the same way", () => {
    expect(renderConfirm("Pay\u202E {amount}", { amount: "5" })).toBe("Pay\uFFFD 5");
  });

  it("cuts a value to 120 code points, the cut shown by U+2026", () => {
    expect(renderConfirm("{a}", { a: "x".repeat(120) })).toBe("x".repeat(120));
    expect(renderConfirm("{a}", { a: "x".repeat(121) })).toBe(`${"x".repeat(119)}\u2026`);
    const emoji = "\u{1F600}".repeat(130);
    expect(codePoints(renderConfirm("{a}", { a: emoji }))).toHaveLength(120);
  });

  it("expands in one pass: a value holding {other} stays literal", () => {
    expect(renderConfirm("{a} and {b}", { a: "{b}", b: "B" })).toBe("{b} and B");
    expect(renderConfirm("{a}", { a: "{a}{a}" })).toBe("{a}{a}");
  });

  it("refuses an arg value that is not a string", () => {
    const args = { a: 1 } as unknown as Record<string, string>;
    expect(() => renderConfirm("{a}", args)).toThrow(TypeError);
  });
});

const FSI = "\u2068";
const PDI = "\u2069";
/** Every code point class a value may not bring into the line (see README, "Confirm lines"). */
const HIDDEN = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}\p{Co}\p{Cn}\p{Default_Ignorable_Code_Point}\u2800\u{1D159}]/u;
const ODD_SPACE = /[^\P{Zs} ]/u;
const MARK = /\p{M}/u;
const RIGHT_TO_LEFT = /[\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFE\u{10800}-\u{10FFF}\u{1E800}-\u{1EFFF}]/u;

/** The value's part of `[{a}]`, with renderConfirm's own isolates taken off (and checked to be a pair). */
function shownValue(line: string): { inner: string; isolated: boolean } {
  expect(line.startsWith("[")).toBe(true);
  expect(line.endsWith("]")).toBe(true);
  const body = line.slice(1, -1);
  if (body.startsWith(FSI)) {
    expect(body.endsWith(PDI)).toBe(true);
    return { inner: body.slice(1, -1), isolated: true };
  }
  return { inner: body, isolated: false };
}

describe("renderConfirm properties", () => {
  it("never lets a value bring in a hidden, blank, odd-space or bidi code point, a stack of marks, or an unisolated right-to-left run", () => {
    fc.assert(
      fc.property(value, (a) => {
        const { inner, isolated } = shownValue(renderConfirm("[{a}]", { a }));
        const points = codePoints(inner);
        let marks = 0;
        let previous: string | undefined;
        for (const point of points) {
          const presentation = (point === "\uFE0E" || point === "\uFE0F") && previous !== undefined && isEmojiVariationBase(previous.codePointAt(0) ?? 0);
          if (!presentation) expect(HIDDEN.test(point), `U+${point.codePointAt(0)?.toString(16)}`).toBe(false);
          expect(ODD_SPACE.test(point)).toBe(false);
          marks = MARK.test(point) ? marks + 1 : 0;
          expect(marks).toBeLessThanOrEqual(3);
          previous = point;
        }
        if (points.length > 0) expect(MARK.test(points[0] as string)).toBe(false);
        expect(isolated).toBe(RIGHT_TO_LEFT.test(inner));
        expect(points.length).toBeLessThanOrEqual(120);
      }),
      { numRuns: 500 },
    );
  });

  it("keeps plain text (quotation marks aside) exactly as given, bounded to 120 code points with U+2026 showing the cut", () => {
    const plain = fc
      .array(
        fc.oneof(
          fc
            .integer({ min: 0x20, max: 0x7e })
            .map((point) => String.fromCodePoint(point))
            .filter((character) => !`"'\``.includes(character)),
          fc.constantFrom("é", "ß", "ж", "中", "\u{1F600}", "ü", "ñ"),
        ),
        { maxLength: 200 },
      )
      .map((points) => points.join(""));
    fc.assert(
      fc.property(plain, (a) => {
        const input = codePoints(a);
        const output = codePoints(renderConfirm("{a}", { a }));
        if (input.length <= 120) expect(output.join("")).toBe(a);
        else expect(output).toEqual([...input.slice(0, 119), "\u2026"]);
      }),
    );
  });

  it("gives the same line for the same inputs", () => {
    fc.assert(
      fc.property(value, value, (a, b) => {
        const args = { a, b };
        expect(renderConfirm("{b}: {a}", args)).toBe(renderConfirm("{b}: {a}", { ...args }));
      }),
    );
  });

  it("renders each placeholder independently of the others' values (one pass)", () => {
    fc.assert(
      fc.property(value, value, (a, b) => {
        expect(renderConfirm("{a}|{b}", { a, b })).toBe(`${renderConfirm("{a}", { a })}|${renderConfirm("{b}", { b })}`);
      }),
    );
  });

  it("never lets a control, format, separator or lone surrogate character of a value through, except its own isolates", () => {
    fc.assert(
      fc.property(value, value, (a, b) => {
        const line = renderConfirm("{a} then {b}", { a, b }).replace(/\u2068|\u2069/gu, "");
        const rest = line.replace(/(?<=[^\p{M}\uFFFD])[\uFE0E\uFE0F]/gu, "");
        expect(UNSAFE.test(rest)).toBe(false);
      }),
    );
  });
});
