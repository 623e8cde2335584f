/** Controls, bidi controls, zero-width and other format characters, line and paragraph separators, lone surrogates. */
const UNSAFE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/gu;

/** Text from a manifest or a server, safe to print on a terminal: anything that could move the cursor or reorder text becomes U+FFFD. */
export function printable(text: string): string {
  return text.replace(UNSAFE, "\uFFFD");
}
