import { neutraliseText, REPLACEMENT_CHARACTER } from "@eleven-integrations/schema";
import { MAX_CONFIRM_VALUE_CODE_POINTS } from "./limits.js";

export { neutraliseText };
export const REPLACEMENT = REPLACEMENT_CHARACTER;
const ELLIPSIS = "\u2026";
/** FIRST STRONG ISOLATE and POP DIRECTIONAL ISOLATE: what renderConfirm wraps a right-to-left value in. */
export const FSI = "\u2068";
export const PDI = "\u2069";

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

/** At most `MAX_CONFIRM_VALUE_CODE_POINTS` code points; a cut value ends in U+2026 so the cut shows. */
function bound(text: string): { text: string; shortened: boolean } {
  if (text.length <= MAX_CONFIRM_VALUE_CODE_POINTS) return { text, shortened: false };
  const codePoints = Array.from(text);
  if (codePoints.length <= MAX_CONFIRM_VALUE_CODE_POINTS) return { text, shortened: false };
  return { text: codePoints.slice(0, MAX_CONFIRM_VALUE_CODE_POINTS - 1).join("") + ELLIPSIS, shortened: true };
}

/** A value holding right-to-left letters is wrapped in FSI … PDI, so it cannot reorder the text around it. */
export function isolate(text: string): string {
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
