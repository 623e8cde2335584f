// Plain loops for the ASCII that every payload, key and digest input here
// almost always is: TextEncoder and TextDecoder cross into C++ on each call,
// which cost more than the checks around them (see bench/grants.mjs).
const encoder = new TextEncoder();
const CHUNK = 4096;

/** The UTF-8 bytes of `text` (lone surrogates become U+FFFD, as with TextEncoder). */
export function utf8(text: string): Uint8Array {
  const length = text.length;
  const bytes = new Uint8Array(length);
  for (let index = 0; index < length; index++) {
    const code = text.charCodeAt(index);
    if (code > 0x7f) return encoder.encode(text);
    bytes[index] = code;
  }
  return bytes;
}

/** `bytes` as text when every byte is ASCII, else undefined. */
export function asciiText(bytes: Uint8Array): string | undefined {
  for (let index = 0; index < bytes.length; index++) {
    if ((bytes[index] as number) > 0x7f) return undefined;
  }
  return charCodesToString(bytes);
}

/** A string of the given char codes (each 0 to 255). */
export function charCodesToString(codes: Uint8Array): string {
  if (codes.length <= CHUNK) return String.fromCharCode.apply(null, codes as unknown as number[]);
  let text = "";
  for (let start = 0; start < codes.length; start += CHUNK) {
    text += String.fromCharCode.apply(null, codes.subarray(start, start + CHUNK) as unknown as number[]);
  }
  return text;
}

/** True when `a` and `b` hold the same bytes. */
export function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let index = 0; index < a.length; index++) difference |= (a[index] as number) ^ (b[index] as number);
  return difference === 0;
}

/** The UTF-8 of `parts` joined, each part encoded where it goes: no joined string is made (for megabytes of text in pieces). */
export function utf8OfParts(parts: readonly string[]): Uint8Array {
  const lengths = new Array<number>(parts.length);
  let total = 0;
  for (let index = 0; index < parts.length; index++) {
    const length = utf8Length(parts[index] as string);
    lengths[index] = length;
    total += length;
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (let index = 0; index < parts.length; index++) {
    const end = offset + (lengths[index] as number);
    encoder.encodeInto(parts[index] as string, bytes.subarray(offset, end));
    offset = end;
  }
  return bytes;
}

type ByteLength = (text: string, encoding: "utf8") => number;

/**
 * How many bytes the UTF-8 of `text` takes (a lone surrogate as U+FFFD's three, as TextEncoder
 * writes it): Node's `Buffer.byteLength` where there is one (counted in C++), else counted here,
 * since this package also runs in browsers, which have no Buffer.
 */
export function utf8Length(text: string): number {
  const byteLength = (globalThis as { Buffer?: { byteLength: ByteLength } }).Buffer?.byteLength;
  return byteLength === undefined ? countUtf8Length(text) : byteLength(text, "utf8");
}

/** {@link utf8Length} counted here, code unit by code unit. */
export function countUtf8Length(text: string): number {
  let length = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code < 0x80) length += 1;
    else if (code < 0x800) length += 2;
    else if (code >= 0xd800 && code <= 0xdbff && index + 1 < text.length) {
      const next = text.charCodeAt(index + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        length += 4;
        index++;
      } else length += 3;
    } else length += 3;
  }
  return length;
}
