/**
 * Characters no URL value may hold: controls (C0, DEL, C1), format characters (the
 * bidirectional controls, zero-width spaces and joiners, the BOM), the line and paragraph
 * separators, and lone surrogates.
 */
const UNSAFE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/u;
const LONE_SURROGATE = /\p{Cs}/u;

export function hasUnsafeCharacter(value: string): boolean {
  return UNSAFE.test(value);
}

/** A lone surrogate cannot be encoded as UTF-8, so no value may hold one, body values included. */
export function hasLoneSurrogate(value: string): boolean {
  return LONE_SURROGATE.test(value);
}
