import { EMOJI_VARIATION_BASE_RANGES } from "./emoji-variation-bases.js";

let bases: Set<number> | undefined;

function loadBases(): Set<number> {
  const set = new Set<number>();
  for (const range of EMOJI_VARIATION_BASE_RANGES.split(",")) {
    const [first = "", last = first] = range.split("-");
    const end = Number.parseInt(last, 16);
    for (let codePoint = Number.parseInt(first, 16); codePoint <= end; codePoint++) set.add(codePoint);
  }
  return set;
}

/**
 * True when `codePoint` followed by U+FE0F (emoji style) or U+FE0E (text style)
 * is a presentation sequence Unicode defines (emoji-variation-sequences.txt):
 * `❤` U+2764, `#` U+0023, `☺` U+263A... and not a Latin letter.
 */
export function isEmojiVariationBase(codePoint: number): boolean {
  bases ??= loadBases();
  return bases.has(codePoint);
}
