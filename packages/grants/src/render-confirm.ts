import { splitTemplate } from "@eleven-integrations/schema";
import { MAX_CONFIRM_VALUE_CODE_POINTS } from "./limits.js";

// Controls (Cc: C0, DEL, C1), format characters (Cf: bidi embeddings, overrides
// and isolates, zero-width characters, BOM, tags), line and paragraph
// separators, and lone surrogates: each could hide or reorder what the line shows.
const UNSAFE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/gu;
const REPLACEMENT = "\uFFFD";
const ELLIPSIS = "\u2026";

/** Replaces every control, format, separator and lone surrogate character with U+FFFD, visibly. */
export function neutralise(text: string): string {
  return text.replace(UNSAFE, REPLACEMENT);
}

/** At most `MAX_CONFIRM_VALUE_CODE_POINTS` code points; a cut value ends in U+2026 so the cut shows. */
function bound(text: string): string {
  if (text.length <= MAX_CONFIRM_VALUE_CODE_POINTS) return text;
  const codePoints = Array.from(text);
  if (codePoints.length <= MAX_CONFIRM_VALUE_CODE_POINTS) return text;
  return codePoints.slice(0, MAX_CONFIRM_VALUE_CODE_POINTS - 1).join("") + ELLIPSIS;
}

/**
 * The confirm line a person taps: `template` with each `{arg}` replaced, in one
 * pass (a value is never expanded again), by the arg's value with controls,
 * bidi and zero-width characters shown as U+FFFD and cut to 120 code points
 * (ending in U+2026 when cut). A placeholder whose arg was not given renders as
 * nothing. The template's own text is neutralised the same way. The same inputs
 * always give the same line.
 */
export function renderConfirm(template: string, args: Record<string, string>): string {
  let line = "";
  for (const part of splitTemplate(template)) {
    if (part.kind === "literal") {
      line += neutralise(part.text);
      continue;
    }
    // Own properties only: `{constructor}` must not render Object.prototype.constructor.
    if (!Object.hasOwn(args, part.name)) continue;
    const value: unknown = args[part.name];
    if (value === undefined) continue;
    if (typeof value !== "string") throw new TypeError(`renderConfirm: arg ${part.name} is not a string`);
    line += bound(neutralise(value));
  }
  return line;
}
