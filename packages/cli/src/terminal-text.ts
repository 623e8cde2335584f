/**
 * Characters the CLI never prints raw: controls (C0 with ESC, CR, LF and tab;
 * DEL; C1 with CSI), format characters (bidi controls, zero-width characters,
 * BOM, tags), line and paragraph separators, lone surrogates and every other
 * default-ignorable code point. Raw, they could move the cursor, rewrite what
 * the terminal shows, reorder a line or hide text.
 */
const UNPRINTABLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}\p{Default_Ignorable_Code_Point}]/gu;

function hex(value: number, digits: number): string {
  return value.toString(16).toUpperCase().padStart(digits, "0");
}

/**
 * Text from a manifest or a provider, safe to print: every unprintable
 * character shown as `\u{XXXX}`, visibly, so ESC [2J prints as `\u{1B}[2J`.
 */
export function escapeText(text: string): string {
  return text.replace(UNPRINTABLE, (character) => `\\u{${hex(character.codePointAt(0) ?? 0, 1)}}`);
}

/**
 * `JSON.stringify(value, null, indent)` with every unprintable character
 * escaped as `\uXXXX` (JSON.stringify leaves DEL, C1, bidi and zero-width
 * characters raw): still valid JSON, parsing back to the same value.
 */
export function escapeJson(value: unknown, indent = 2): string {
  const json = JSON.stringify(value, null, indent) ?? "null";
  // JSON.stringify escapes C0 inside strings, so a raw LF here is the indentation's own.
  return json.replace(UNPRINTABLE, (character) => {
    if (character === "\n") return character;
    let out = "";
    for (let index = 0; index < character.length; index += 1) out += `\\u${hex(character.charCodeAt(index), 4).toLowerCase()}`;
    return out;
  });
}

/** Several lines of text from a manifest or a provider: each line escaped, the line breaks kept. */
export function escapeLines(text: string): string {
  return text.split("\n").map(escapeText).join("\n");
}
