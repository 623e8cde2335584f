import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { renderConfirm } from "./render-confirm.js";

const UNSAFE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/u;
const BIDI = ["\u202A", "\u202B", "\u202C", "\u202D", "\u202E", "\u2066", "\u2067", "\u2068", "\u2069", "\u200E", "\u200F", "\u061C"];
const ZERO_WIDTH = ["\u200B", "\u200C", "\u200D", "\u2060", "\uFEFF", "\u00AD"];
const BREAKS = ["\r", "\n", "\r\n", "\u2028", "\u2029", "\u0085", "\u000B", "\u000C"];
const CONTROLS = ["\u0000", "\u0007", "\u001B", "\u007F", "\u0080", "\u009B", "\u009F"];

/** Any code point, lone surrogates included, with the dangerous ones and braces often. */
const codePoint = fc.oneof(
  fc.integer({ min: 0, max: 0x10ffff }).map((value) => String.fromCodePoint(value)),
  fc.constantFrom(...BIDI, ...ZERO_WIDTH, ...BREAKS, ...CONTROLS, "{", "}", "\uD800", "\uDFFF", "a", "\u00E9", "\u{1F600}"),
);
const value = fc.array(codePoint, { maxLength: 200 }).map((points) => points.join(""));

function codePoints(text: string): string[] {
  return Array.from(text);
}

describe("renderConfirm", () => {
  it("fills each placeholder with its arg", () => {
    expect(renderConfirm("Create issue {title} in {repo}", { title: "Fix it", repo: "octo/hello" })).toBe(
      "Create issue Fix it in octo/hello",
    );
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

describe("renderConfirm properties", () => {
  it("never lets a control, format, separator or lone surrogate character through", () => {
    fc.assert(
      fc.property(value, value, (a, b) => {
        expect(UNSAFE.test(renderConfirm("{a} then {b}", { a, b }))).toBe(false);
      }),
    );
  });

  it("keeps every other character, one for one, bounded to 120 code points", () => {
    fc.assert(
      fc.property(value, (a) => {
        const input = codePoints(a);
        const output = codePoints(renderConfirm("{a}", { a }));
        expect(output.length).toBe(Math.min(input.length, 120));
        const kept = input.length > 120 ? 119 : input.length;
        for (let index = 0; index < kept; index++) {
          const original = input[index] as string;
          expect(output[index]).toBe(UNSAFE.test(original) ? "\uFFFD" : original);
        }
        if (input.length > 120) expect(output[119]).toBe("\u2026");
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
});
