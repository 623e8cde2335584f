import { MAX_COMBINING_MARKS, MAX_CONFIRM_VALUE_CODE_POINTS } from "./limits.js";

export const REPLACEMENT = "\uFFFD";
const ELLIPSIS = "\u2026";
/** FIRST STRONG ISOLATE and POP DIRECTIONAL ISOLATE: what renderConfirm wraps a right-to-left value in. */
export const FSI = "\u2068";
export const PDI = "\u2069";

/**
 * Shown as U+FFFD: controls (Cc), format characters (Cf: bidi controls, zero-width
 * characters, BOM, soft hyphen, tags), line and paragraph separators, lone
 * surrogates, every default-ignorable code point (Hangul fillers U+115F, U+1160,
 * U+3164, U+FFA0, the combining grapheme joiner, Khmer inherent vowels, variation
 * selectors...), private-use and unassigned code points (a font may draw them as
 * anything, or as nothing), and the letters and symbols that render blank
 * (braille blank U+2800, musical null notehead U+1D159).
 */
export const HIDDEN = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}\p{Co}\p{Cn}\p{Default_Ignorable_Code_Point}\u2800\u{1D159}]/u;
/** Space separators other than U+0020 (no-break, thin, hair, ideographic, ogham...): shown as a plain space. */
const ODD_SPACE = /[^\P{Zs} ]/u;
const MARK = /\p{M}/u;
/** Text or emoji presentation selectors: kept once, right after a visible base. */
const PRESENTATION_SELECTOR = /[\uFE0E\uFE0F]/u;
/** Strong right-to-left letters (Hebrew, Arabic, Syriac, Thaana, NKo, ... and their presentation forms). */
export const RIGHT_TO_LEFT = /[\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFE\u{10800}-\u{10FFF}\u{1E800}-\u{1EFFF}]/u;

export interface DisplayText {
  /** What a person is shown. */
  text: string;
  /** The code points that were replaced, as `U+XXXX`, in order of first appearance. */
  hidden: string[];
  /** True when the value was cut to `MAX_CONFIRM_VALUE_CODE_POINTS`. */
  shortened: boolean;
}

function codePointName(character: string): string {
  return `U+${(character.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0")}`;
}

/**
 * Every character of `text` as it may be shown: hidden characters as U+FFFD
 * (one for one), odd spaces as U+0020, a stack of more than
 * `MAX_COMBINING_MARKS` combining marks on one base cut to that many and
 * followed by one U+FFFD, marks with no base before them in `text` as one
 * U+FFFD (so a value cannot decorate the template's text before it).
 */
export function neutraliseText(text: string): { text: string; hidden: string[] } {
  let out = "";
  const hidden: string[] = [];
  const note = (character: string) => {
    const name = codePointName(character);
    if (!hidden.includes(name)) hidden.push(name);
  };
  let hasBase = false;
  let marks = 0;
  let stackCut = false;
  let selectorAllowed = false;
  for (const character of text) {
    if (PRESENTATION_SELECTOR.test(character) && selectorAllowed) {
      out += character;
      selectorAllowed = false;
      marks = 1; // a selector is a mark of the stack it starts
      continue;
    }
    if (HIDDEN.test(character)) {
      note(character);
      out += REPLACEMENT;
      hasBase = true;
      marks = 0;
      stackCut = false;
      selectorAllowed = false;
      continue;
    }
    if (MARK.test(character)) {
      selectorAllowed = false;
      if (!hasBase) {
        note(character);
        out += REPLACEMENT;
        hasBase = true;
        marks = MAX_COMBINING_MARKS;
        stackCut = true;
        continue;
      }
      marks += 1;
      if (marks <= MAX_COMBINING_MARKS) {
        out += character;
      } else {
        note(character);
        if (!stackCut) out += REPLACEMENT;
        stackCut = true;
      }
      continue;
    }
    hasBase = true;
    marks = 0;
    stackCut = false;
    selectorAllowed = true;
    out += ODD_SPACE.test(character) ? " " : character;
  }
  return { text: out, hidden };
}

/** At most `MAX_CONFIRM_VALUE_CODE_POINTS` code points; a cut value ends in U+2026 so the cut shows. */
function bound(text: string): { text: string; shortened: boolean } {
  if (text.length <= MAX_CONFIRM_VALUE_CODE_POINTS) return { text, shortened: false };
  const codePoints = Array.from(text);
  if (codePoints.length <= MAX_CONFIRM_VALUE_CODE_POINTS) return { text, shortened: false };
  return { text: codePoints.slice(0, MAX_CONFIRM_VALUE_CODE_POINTS - 1).join("") + ELLIPSIS, shortened: true };
}

/** A value holding right-to-left letters is wrapped in FSI … PDI, so it cannot reorder the text around it. */
function isolate(text: string): string {
  return RIGHT_TO_LEFT.test(text) ? FSI + text + PDI : text;
}

/** A value as the confirm line shows it: neutralised, cut to 120 code points, isolated when right-to-left. */
export function displayValue(value: string): DisplayText {
  const neutralised = neutraliseText(value);
  const bounded = bound(neutralised.text);
  return { text: isolate(bounded.text), hidden: neutralised.hidden, shortened: bounded.shortened };
}

/** A value as `details` shows it: neutralised and isolated like the line, but whole. */
export function displayWholeValue(value: string): string {
  return isolate(neutraliseText(value).text);
}
