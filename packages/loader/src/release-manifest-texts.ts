const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;

/** What {@link releaseManifestTexts} found: the text of each manifest and of the whole `integrations` array. */
export interface ReleaseManifestTexts {
  readonly manifests: readonly string[];
  readonly array: string;
}

/**
 * The text of each element of the `integrations` array of a release's registry JSON (`text`,
 * which must be JSON: the caller parsed it), in order, and of the array itself. Undefined when
 * the object's keys are not in strictly increasing order (as RFC 8785 writes them: a key given
 * twice, which `JSON.parse` resolves to the last, is refused rather than guessed at) or it has
 * no `integrations` array. Strings are skipped whole, so a comma or bracket inside one never
 * splits an element.
 */
export function releaseManifestTexts(text: string): ReleaseManifestTexts | undefined {
  const manifests: string[] = [];
  let depth = 0;
  let keyExpected = false;
  let lastKey: string | undefined;
  let key: string | undefined;
  let arrayStart = -1;
  let array: string | undefined;
  let elementStart = -1;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code === QUOTE) {
      const close = stringEnd(text, index);
      if (close < 0) return undefined;
      if (depth === 1 && keyExpected) {
        const name = text.slice(index + 1, close);
        // Top-level keys of a release are plain ASCII words; an escaped one is not compared here.
        if (name.includes("\\") || (lastKey !== undefined && !(lastKey < name))) return undefined;
        lastKey = key = name;
        keyExpected = false;
      }
      index = close;
      continue;
    }
    switch (code) {
      case OPEN_OBJECT:
      case OPEN_ARRAY:
        depth += 1;
        if (depth === 1) keyExpected = code === OPEN_OBJECT;
        else if (depth === 2 && key === "integrations" && code === OPEN_ARRAY) {
          if (arrayStart >= 0) return undefined;
          arrayStart = index;
          elementStart = index + 1;
        }
        break;
      case CLOSE_OBJECT:
      case CLOSE_ARRAY:
        if (depth === 2 && elementStart >= 0) {
          if (index > elementStart) manifests.push(text.slice(elementStart, index));
          array = text.slice(arrayStart, index + 1);
          elementStart = -1;
        }
        depth -= 1;
        break;
      case COMMA:
        if (depth === 1) keyExpected = true;
        else if (depth === 2 && elementStart >= 0) {
          manifests.push(text.slice(elementStart, index));
          elementStart = index + 1;
        }
        break;
      default:
        break;
    }
  }
  return array === undefined ? undefined : { manifests, array };
}

/** The index of the quote that closes the string opened at `open`, or -1. */
function stringEnd(text: string, open: number): number {
  let close = text.indexOf('"', open + 1);
  while (close > 0) {
    let backslashes = 0;
    while (text.charCodeAt(close - 1 - backslashes) === BACKSLASH) backslashes += 1;
    if (backslashes % 2 === 0) return close;
    close = text.indexOf('"', close + 1);
  }
  return -1;
}
