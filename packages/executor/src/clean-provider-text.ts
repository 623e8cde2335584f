/** The most characters (code points) of a provider's code or message passed on. */
export const MAX_PROVIDER_TEXT = 300;

/** ANSI/VT escape sequences: CSI (`ESC [` or U+009B), OSC (`ESC ]` … BEL or ST), and two-character escapes. */
const ESCAPES = /(?:\u001b\[|\u009b)[0-?]*[ -/]*[@-~]|(?:\u001b\]|\u009d)[^\u0007\u001b\u009c]*(?:\u0007|\u001b\\|\u009c)?|\u001b[@-Z\\-_]/g;
const BREAKS = /[\p{Cc}\p{Zl}\p{Zp}]+/gu;
/** Format characters (bidi controls, zero-width characters, the BOM) and lone surrogates. */
const INVISIBLE = /[\p{Cf}\p{Cs}]/gu;

/**
 * A provider's own words made safe to show: escape sequences and every control,
 * bidi and zero-width character removed (line breaks become a space), whitespace
 * collapsed, at most 300 code points. Undefined when nothing readable is left.
 */
export function cleanProviderText(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  // Long texts are cut early (generously, so escapes cannot push text past the cut).
  const bounded = text.length > MAX_PROVIDER_TEXT * 16 ? text.slice(0, MAX_PROVIDER_TEXT * 16) : text;
  const cleaned = bounded.replace(ESCAPES, "").replace(BREAKS, " ").replace(INVISIBLE, "").replace(/\s+/g, " ").trim();
  if (cleaned === "") return undefined;
  const points = [...cleaned];
  return points.length <= MAX_PROVIDER_TEXT ? cleaned : `${points.slice(0, MAX_PROVIDER_TEXT - 1).join("")}…`;
}
