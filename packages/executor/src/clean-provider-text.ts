import { neutraliseText, REPLACEMENT_CHARACTER } from "@eleven-integrations/schema";

/** The most characters (code points) of a provider's code or message passed on. */
export const MAX_PROVIDER_TEXT = 300;

/** ANSI/VT escape sequences: CSI (`ESC [` or U+009B), OSC (`ESC ]` … BEL or ST), and two-character escapes. */
const ESCAPES = /(?:\u001b\[|\u009b)[0-?]*[ -/]*[@-~]|(?:\u001b\]|\u009d)[^\u0007\u001b\u009c]*(?:\u0007|\u001b\\|\u009c)?|\u001b[@-Z\\-_]/g;
/** Line breaks and other controls between words: a space, so the words stay apart. */
const BREAKS = /[\p{Cc}\p{Zl}\p{Zp}]+/gu;
const NOTHING_READABLE = new RegExp(`^[\\s${REPLACEMENT_CHARACTER}]*$`, "u");

/**
 * A provider's own words made safe to show, with the same cleaning as a confirm
 * line's values (`neutraliseText` of the schema package): escape sequences
 * removed whole, line breaks and other controls as one space, then every format,
 * bidi, zero-width and other default-ignorable character as U+FFFD, a stack of
 * combining marks cut to three, a variation selector kept only in a real emoji
 * presentation sequence, odd spaces plain; whitespace collapsed, at most 300 code
 * points. Undefined when nothing readable is left.
 */
export function cleanProviderText(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  // Long texts are cut early (generously, so escapes cannot push text past the cut).
  const bounded = text.length > MAX_PROVIDER_TEXT * 16 ? text.slice(0, MAX_PROVIDER_TEXT * 16) : text;
  const words = bounded.replace(ESCAPES, "").replace(BREAKS, " ");
  const cleaned = neutraliseText(words).text.replace(/\s+/g, " ").trim();
  if (NOTHING_READABLE.test(cleaned)) return undefined;
  const points = [...cleaned];
  return points.length <= MAX_PROVIDER_TEXT ? cleaned : `${points.slice(0, MAX_PROVIDER_TEXT - 1).join("")}…`;
}
