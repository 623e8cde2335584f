import { hasUnsafeCharacter } from "./unsafe-characters.js";

/** How many rounds of percent-decoding and NFKC a value is checked through. */
const MAX_SPELLINGS = 8;
const PERCENT_RUN = /(?:%[0-9A-Fa-f]{2})+/g;
const ASCII_PERCENT = /%([0-7][0-9A-Fa-f])/g;

/**
 * The problem with a value that fills a whole path segment, or undefined. Each spelling
 * a server might see is checked: the value, its NFKC form (full-width `．．` is `..`)
 * and its percent-decoded forms (`%2e%2e`, `%252e`), so no decoding step downstream
 * turns it into a dot segment, a separator or a control. A value followed by a literal
 * suffix in its segment (`{sid}.json`, `{id}:batchUpdate`) may not end in `.` in any
 * spelling either, so value and suffix never run together into `..` or a new extension.
 */
export function pathValueProblem(value: string, suffixed = false): string | undefined {
  if (value === "") return "must not be empty in a path";
  for (const spelling of spellings(value)) {
    if (spelling === "." || spelling === "..") return 'must not be "." or ".." in any spelling';
    if (suffixed && spelling.endsWith(".")) return 'must not end in "." in any spelling (a suffix follows it in its segment)';
    if (spelling.includes("/") || spelling.includes("\\")) return 'must not hold "/" or "\\" in any spelling';
    if (hasUnsafeCharacter(spelling)) return "must not hold control, bidirectional or zero-width characters";
  }
  return undefined;
}

/** The problem with a value that fills a query value, or undefined. */
export function queryValueProblem(value: string): string | undefined {
  for (const spelling of spellings(value)) {
    if (hasUnsafeCharacter(spelling)) return "must not hold control, bidirectional or zero-width characters";
  }
  return undefined;
}

/** ASCII without `%`: NFKC and percent-decoding both leave it as it is. */
const ONE_SPELLING = /^[\x00-\x24\x26-\x7f]*$/;

function spellings(value: string): string[] {
  const found = [value];
  if (ONE_SPELLING.test(value)) return found;
  for (let index = 0; index < found.length && found.length < MAX_SPELLINGS; index += 1) {
    const spelling = found[index] as string;
    for (const next of [spelling.normalize("NFKC"), percentDecode(spelling)]) {
      if (!found.includes(next)) found.push(next);
    }
  }
  return found;
}

/** Decodes every well-formed run of percent-encoded UTF-8; a malformed run decodes its ASCII bytes only. */
function percentDecode(value: string): string {
  if (!value.includes("%")) return value;
  return value.replace(PERCENT_RUN, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run.replace(ASCII_PERCENT, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
    }
  });
}
