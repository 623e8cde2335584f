import { isEmojiVariationBase } from "./unicode/emoji-variation.js";

/** What a neutralised character is shown as. */
export const REPLACEMENT_CHARACTER = "\uFFFD";
/** Most combining marks shown on one base character; the rest of the stack shows as one U+FFFD. */
export const MAX_COMBINING_MARKS = 3;

/**
 * Characters shown as U+FFFD: controls (Cc), format characters (Cf: bidi controls,
 * zero-width space and joiners, word joiner, BOM, soft hyphen, tags), line and
 * paragraph separators, lone surrogates, every default-ignorable code point
 * (Hangul fillers U+115F, U+1160, U+3164, U+FFA0, the combining grapheme joiner,
 * Khmer inherent vowels, variation selectors...), private-use and unassigned code
 * points (a font may draw them as anything, or as nothing), and the letters and
 * symbols that render blank (braille blank U+2800, musical null notehead U+1D159).
 */
export const HIDDEN_CHARACTER = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}\p{Co}\p{Cn}\p{Default_Ignorable_Code_Point}\u2800\u{1D159}]/u;
/** Space separators other than U+0020 (no-break, thin, hair, ideographic, ogham...): shown as a plain space. */
const ODD_SPACE = /[^\P{Zs} ]/u;
const MARK = /\p{M}/u;
/** Text that needs no change at all: the common case, checked in one pass. */
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
const TEXT_STYLE = 0xfe0e;
const EMOJI_STYLE = 0xfe0f;

export interface NeutralisedText {
  /** What a person is shown. */
  text: string;
  /** The code points that were replaced, as `U+XXXX`, in order of first appearance. */
  hidden: string[];
}

function codePointName(codePoint: number): string {
  return `U+${codePoint.toString(16).toUpperCase().padStart(4, "0")}`;
}

/**
 * Text as it may be shown to a person, one code point at a time: hidden
 * characters (`HIDDEN_CHARACTER`) as U+FFFD, one for one; odd spaces as U+0020;
 * a stack of more than `MAX_COMBINING_MARKS` combining marks on one base cut to
 * that many and followed by one U+FFFD; marks with no base before them as one
 * U+FFFD (so text cannot decorate what is shown before it); a presentation
 * selector (U+FE0E, U+FE0F) kept only right after a base with which Unicode
 * defines an emoji variation sequence (emoji-variation-sequences.txt), every
 * other one U+FFFD. Confirm-line values and providers' messages both go
 * through it.
 */
export function neutraliseText(text: string): NeutralisedText {
  if (PRINTABLE_ASCII.test(text)) return { text, hidden: [] };
  let out = "";
  const hidden: string[] = [];
  const note = (codePoint: number) => {
    const name = codePointName(codePoint);
    if (!hidden.includes(name)) hidden.push(name);
  };
  let hasBase = false;
  let marks = 0;
  let stackCut = false;
  let selectorBase = false;
  for (const character of text) {
    const codePoint = character.codePointAt(0) ?? 0;
    if ((codePoint === EMOJI_STYLE || codePoint === TEXT_STYLE) && selectorBase) {
      out += character;
      selectorBase = false;
      marks = 1; // a selector is a mark of the stack it starts (a keycap U+20E3 may follow)
      continue;
    }
    selectorBase = false;
    if (codePoint >= 0x20 && codePoint < 0x7f) {
      // Printable ASCII: never hidden, a mark or an odd space; `#`, `*` and digits start emoji sequences.
      out += character;
      hasBase = true;
      marks = 0;
      stackCut = false;
      selectorBase = codePoint === 0x23 || codePoint === 0x2a || (codePoint >= 0x30 && codePoint <= 0x39);
      continue;
    }
    if (HIDDEN_CHARACTER.test(character)) {
      note(codePoint);
      out += REPLACEMENT_CHARACTER;
      hasBase = true;
      marks = 0;
      stackCut = false;
      continue;
    }
    if (MARK.test(character)) {
      if (!hasBase) {
        note(codePoint);
        out += REPLACEMENT_CHARACTER;
        hasBase = true;
        marks = MAX_COMBINING_MARKS;
        stackCut = true;
        continue;
      }
      marks += 1;
      if (marks <= MAX_COMBINING_MARKS) {
        out += character;
      } else {
        note(codePoint);
        if (!stackCut) out += REPLACEMENT_CHARACTER;
        stackCut = true;
      }
      continue;
    }
    hasBase = true;
    marks = 0;
    stackCut = false;
    selectorBase = isEmojiVariationBase(codePoint);
    out += ODD_SPACE.test(character) ? " " : character;
  }
  return { text: out, hidden };
}
