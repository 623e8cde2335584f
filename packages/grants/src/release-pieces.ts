const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;

/** The manifests of a laid-out release's registry, as they stand in its bytes (views of them, not copies). */
export interface ReleaseManifestBytes {
  /** Each element of `registry.integrations`: its JSON's UTF-8 exactly as it stands between the array's commas. */
  readonly manifests: readonly Uint8Array[];
  /** The bytes of the `integrations` array as they stand (`[`, the elements joined by `,`, `]`). */
  readonly array: Uint8Array;
}

/** A registry object read piece by piece, and its manifests' bytes. */
export interface RegistryPieces {
  readonly registry: Record<string, unknown>;
  readonly bytes: ReleaseManifestBytes;
}

// `ignoreBOM`: a byte order mark inside the document is a character JSON does not allow, not one to drop.
const lenient = new TextDecoder("utf-8", { ignoreBOM: true });
const strict = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/**
 * The text of a piece's bytes, which must be UTF-8. Decoding that replaces what is not UTF-8 with
 * U+FFFD is several times faster than decoding that refuses it (Node.js 20); a text without
 * U+FFFD was therefore UTF-8, and only one with it is decoded again, strictly (it may be spelled
 * out in the bytes).
 */
function decode(bytes: Uint8Array): string {
  const text = lenient.decode(bytes);
  if (!text.includes("\ufffd")) return text;
  try {
    return strict.decode(bytes);
  } catch {
    throw new NotPlainJson();
  }
}

/**
 * Reads a registry's JSON object from its UTF-8 bytes piece by piece: each top-level value,
 * and each element of `integrations`, decoded and parsed on its own. What `JSON.parse` of the
 * whole decoded text gives, without making that text (12 MB for a 6 MB release with one
 * non-ASCII character anywhere, which makes it two bytes a character), and with each manifest's
 * bytes found on the way, so its canonical JSON and the registry's hash are taken from them.
 *
 * Undefined (the caller decodes and parses the whole, and reports what is wrong) for anything
 * this does not read as plain JSON of that shape: bytes that are not UTF-8, a top-level value
 * that is not one JSON value, keys that are not strictly increasing (as RFC 8785 writes them;
 * a key given twice, which `JSON.parse` resolves to the last, is not guessed at), or no
 * `integrations` array. Every byte outside the pieces is JSON whitespace or punctuation, and
 * every piece parses whole, so the pieces are exactly the values parsing the whole would meet.
 */
export function readRegistryPieces(bytes: Uint8Array): RegistryPieces | undefined {
  try {
    return readObject(bytes);
  } catch (error) {
    if (error instanceof SyntaxError || error instanceof NotPlainJson) return undefined;
    throw error;
  }
}

/** Thrown inside the scan for any byte it does not read as plain JSON (caught above). */
class NotPlainJson extends Error {}

function readObject(bytes: Uint8Array): RegistryPieces | undefined {
  const registry: Record<string, unknown> = {};
  let manifestBytes: ReleaseManifestBytes | undefined;
  let index = expect(bytes, skipSpace(bytes, 0), OPEN_OBJECT);
  let lastKey: string | undefined;
  index = skipSpace(bytes, index);
  if (bytes[index] === CLOSE_OBJECT) index += 1;
  else {
    for (;;) {
      if (bytes[index] !== QUOTE) throw new NotPlainJson();
      const keyEnd = stringEnd(bytes, index);
      const key = JSON.parse(decode(bytes.subarray(index, keyEnd))) as string;
      // A `__proto__` key would set the object's prototype here, where parsing the whole makes it a property.
      if ((lastKey !== undefined && !(lastKey < key)) || key === "__proto__") throw new NotPlainJson();
      lastKey = key;
      index = skipSpace(bytes, expect(bytes, skipSpace(bytes, keyEnd), COLON));
      if (key === "integrations" && bytes[index] === OPEN_ARRAY) {
        const array = readArray(bytes, index);
        manifestBytes = array.bytes;
        registry[key] = array.values;
        index = array.end;
      } else {
        const end = valueEnd(bytes, index);
        registry[key] = JSON.parse(decode(bytes.subarray(index, end)));
        index = end;
      }
      index = skipSpace(bytes, index);
      if (bytes[index] === COMMA) index = skipSpace(bytes, index + 1);
      else {
        index = expect(bytes, index, CLOSE_OBJECT);
        break;
      }
    }
  }
  if (skipSpace(bytes, index) !== bytes.length || manifestBytes === undefined) return undefined;
  return { registry, bytes: manifestBytes };
}

/** The array opening at `open`: each element's bytes (with the space around it) and parsed value, and the index after `]`. */
function readArray(bytes: Uint8Array, open: number): { bytes: ReleaseManifestBytes; values: unknown[]; end: number } {
  const manifests: Uint8Array[] = [];
  const values: unknown[] = [];
  let index = skipSpace(bytes, open + 1);
  if (bytes[index] !== CLOSE_ARRAY) {
    let start = open + 1;
    for (;;) {
      const after = skipSpace(bytes, valueEnd(bytes, index));
      const element = bytes.subarray(start, after);
      manifests.push(element);
      values.push(JSON.parse(decode(element)));
      if (bytes[after] === COMMA) {
        start = after + 1;
        index = skipSpace(bytes, start);
      } else {
        index = expect(bytes, after, CLOSE_ARRAY) - 1;
        break;
      }
    }
  }
  return { bytes: { manifests, array: bytes.subarray(open, index + 1) }, values, end: index + 1 };
}

/** The index after the JSON value starting at `start` (its extent only: parsing it checks the rest). */
function valueEnd(bytes: Uint8Array, start: number): number {
  const first = bytes[start];
  if (first === QUOTE) return stringEnd(bytes, start);
  if (first === OPEN_OBJECT || first === OPEN_ARRAY) {
    let depth = 0;
    for (let index = start; index < bytes.length; index += 1) {
      const byte = bytes[index] as number;
      if (byte === QUOTE) index = stringEnd(bytes, index) - 1;
      else if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) depth += 1;
      else if (byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) {
        depth -= 1;
        if (depth === 0) return index + 1;
      } else if (byte > 0x7f) throw new NotPlainJson();
    }
    throw new NotPlainJson();
  }
  // A number, true, false or null: ASCII up to the next punctuation or space.
  let index = start;
  while (index < bytes.length) {
    const byte = bytes[index] as number;
    if (byte === COMMA || byte === CLOSE_OBJECT || byte === CLOSE_ARRAY || isSpace(byte)) break;
    if (byte > 0x7f) throw new NotPlainJson();
    index += 1;
  }
  if (index === start) throw new NotPlainJson();
  return index;
}

/**
 * The index after the quote closing the string opened at `open`: found by searching for quotes,
 * a quote preceded by an odd number of backslashes being escaped. Non-ASCII bytes are passed over
 * here and checked when the piece is decoded (see {@link decode}); they are never a quote or a
 * backslash in UTF-8, valid or not.
 */
function stringEnd(bytes: Uint8Array, open: number): number {
  let close = bytes.indexOf(QUOTE, open + 1);
  while (close > 0) {
    let backslashes = 0;
    while (bytes[close - 1 - backslashes] === BACKSLASH) backslashes += 1;
    if (backslashes % 2 === 0) return close + 1;
    close = bytes.indexOf(QUOTE, close + 1);
  }
  throw new NotPlainJson();
}

const isSpace = (byte: number): boolean => byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;

function skipSpace(bytes: Uint8Array, from: number): number {
  let index = from;
  while (index < bytes.length && isSpace(bytes[index] as number)) index += 1;
  return index;
}

/** The index after `byte`, which must stand at `index`. */
function expect(bytes: Uint8Array, index: number, byte: number): number {
  if (bytes[index] !== byte) throw new NotPlainJson();
  return index + 1;
}
