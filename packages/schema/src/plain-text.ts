/**
 * Characters manifest text may not hold: controls (Cc: C0, DEL, C1, tab, CR, LF),
 * format characters (Cf: bidi embeddings, overrides, isolates and marks,
 * zero-width space and joiners, BOM, soft hyphen, tags), line and paragraph
 * separators, lone surrogates, and every other default-ignorable code point
 * (Hangul fillers, variation selectors, the combining grapheme joiner...), which
 * render as nothing. Each of them could hide or reorder what a member or a
 * maintainer reads, or carry a terminal escape into `integrations show`.
 */
const NOT_PLAIN = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}\p{Default_Ignorable_Code_Point}]/u;

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

const BIDI = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/u;
const ZERO_WIDTH = /[\u200B-\u200D\u2060\uFEFF]/u;

/** What kind of character `character` is, for an error message a maintainer can act on. */
function describe(character: string): string {
  if (BIDI.test(character)) return "a bidi control";
  if (ZERO_WIDTH.test(character)) return "a zero-width character";
  if (/\p{Cc}/u.test(character)) return "a control character";
  if (/[\p{Zl}\p{Zp}]/u.test(character)) return "a line or paragraph separator";
  if (/\p{Cs}/u.test(character)) return "a lone surrogate";
  if (/\p{Cf}/u.test(character)) return "an invisible format character";
  return "an invisible (default-ignorable) character";
}

function codePointName(character: string): string {
  return `U+${(character.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0")}`;
}

/**
 * Why `value` is not plain manifest text, or undefined when it is: names the first
 * offending character by its code point and kind, never quoting it raw.
 */
export function plainTextProblem(value: string): string | undefined {
  // Printable ASCII holds none of them: one cheap test settles most manifest text.
  if (PRINTABLE_ASCII.test(value)) return undefined;
  const match = NOT_PLAIN.exec(value);
  if (match === null) return undefined;
  const character = match[0];
  return `holds ${codePointName(character)} (${describe(character)}) at character ${Array.from(value.slice(0, match.index)).length + 1}: manifest text must be plain, with no control, bidi, zero-width or invisible characters`;
}

/** Holds a character `trim()` keeps (`\s` is exactly the white space and line terminators it removes), without making the trimmed copy. */
export function notBlank(value: string): boolean {
  return NOT_SPACE.test(value);
}

const NOT_SPACE = /\S/;
