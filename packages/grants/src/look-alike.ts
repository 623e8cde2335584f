import { displayWholeValue } from "./confirm-text.js";
import { confusablePrototype, skeleton } from "./unicode/confusables.js";
import { syllabicsLookAlike } from "./unicode/syllabics-look-alikes.js";

/**
 * Scripts a letter is told apart by when judging whether a word mixes scripts.
 * A letter of any other script counts as "Other"; Common and Inherited
 * characters (digits, punctuation, marks) belong to no script.
 */
const SCRIPTS: [string, RegExp][] = [
  ["Latin", /\p{Script=Latin}/u],
  ["Cyrillic", /\p{Script=Cyrillic}/u],
  ["Greek", /\p{Script=Greek}/u],
  ["Armenian", /\p{Script=Armenian}/u],
  ["Cherokee", /\p{Script=Cherokee}/u],
  ["Coptic", /\p{Script=Coptic}/u],
  ["Lisu", /\p{Script=Lisu}/u],
  ["Canadian_Aboriginal", /\p{Script=Canadian_Aboriginal}/u],
  ["Georgian", /\p{Script=Georgian}/u],
  ["Hebrew", /\p{Script=Hebrew}/u],
  ["Arabic", /\p{Script=Arabic}/u],
  ["Han", /\p{Script=Han}/u],
  ["Hiragana", /\p{Script=Hiragana}/u],
  ["Katakana", /\p{Script=Katakana}/u],
  ["Hangul", /\p{Script=Hangul}/u],
  ["Bopomofo", /\p{Script=Bopomofo}/u],
  ["Thai", /\p{Script=Thai}/u],
  ["Devanagari", /\p{Script=Devanagari}/u],
];

/** Combinations one writing system uses inside a word (UTS #39 "highly restrictive"): never flagged. */
const ONE_WRITING_SYSTEM = [new Set(["Latin", "Han", "Hiragana", "Katakana"]), new Set(["Latin", "Han", "Bopomofo"]), new Set(["Latin", "Han", "Hangul"])];

/** Scripts whose letters pass for Latin ones: Latin beside them anywhere in a value is flagged. */
const LATIN_LOOK_ALIKE_SCRIPTS = new Set(["Cyrillic", "Greek", "Armenian", "Cherokee", "Coptic", "Lisu", "Canadian_Aboriginal"]);

const LETTER = /\p{L}/u;
const NO_SCRIPT = /[\p{Script=Common}\p{Script=Inherited}]/u;
const WORD = /[\p{L}\p{M}\p{Nd}_-]+/gu;
const ASCII_ALPHANUMERIC = /^[A-Za-z0-9]+$/;
const SEPARATOR = /[\p{P}\p{S}\p{Z}\s]/u;
const SKIPPED = /[\p{M}\p{Default_Ignorable_Code_Point}]/u;
const LETTER_OR_NUMBER = /[\p{L}\p{N}]/u;
const LETTER_OR_DECIMAL = /[\p{L}\p{Nd}]/u;
const ASCII = /^[\0-\x7f]*$/;

function scriptOf(letter: string): string {
  if (letter.charCodeAt(0) < 0x80) return "Latin";
  for (const [name, pattern] of SCRIPTS) if (pattern.test(letter)) return name;
  return "Other";
}

function isOneWritingSystem(scripts: Set<string>): boolean {
  if (scripts.size <= 1) return true;
  return ONE_WRITING_SYSTEM.some((allowed) => [...scripts].every((script) => allowed.has(script)));
}

/**
 * The ASCII letters or digits a non-ASCII code point imitates, or undefined: its
 * compatibility form when that is ASCII and the code point is a letter or decimal
 * digit (fullwidth `ａ`, mathematical `𝐦`, the ligature `ﬁ`; not `²` or `™`, which
 * read as what they are), else its UTS #39 prototype when that is ASCII (`а`, `ꓲ`,
 * `ɑ`, `∣`), else the Latin capital a Canadian Syllabics letter passes for where
 * confusables.txt gives it none (`ᑕ`, `ᗩ`). The compatibility form comes first so `𝐦` reads as `m`, not as its
 * skeleton `rn`.
 */
export function imitatedAscii(codePoint: number): string | undefined {
  if (codePoint < 0x80) return undefined;
  const character = String.fromCodePoint(codePoint);
  if (LETTER_OR_DECIMAL.test(character)) {
    const compatible = character.normalize("NFKC");
    if (ASCII_ALPHANUMERIC.test(compatible)) return compatible;
  }
  const prototype = confusablePrototype(codePoint);
  if (prototype !== undefined && ASCII_ALPHANUMERIC.test(prototype)) return prototype;
  return syllabicsLookAlike(codePoint);
}

/**
 * True when some run of `text` reads as ASCII letters and digits it is not: every
 * character of the run is an ASCII letter or digit or imitates some (its UTS #39
 * prototype is ASCII alphanumeric: Cyrillic `а`, Lisu `ꓲ`, Cherokee `Ꭺ`, Latin `ɑ`,
 * mathematical `𝐚`, fullwidth `ａ`, the divides sign `∣`...), at least one
 * imitates, and the run holds a letter or digit (a lone `×` between numbers
 * reads as what it is). Runs end at punctuation, symbols and spaces that imitate
 * no letter; marks are read with their base (NFD).
 */
function readsAsAscii(text: string): boolean {
  let imitating = 0;
  let wordLike = false;
  let other = false;
  const endRun = (): boolean => {
    const found = imitating > 0 && wordLike && !other;
    imitating = 0;
    wordLike = false;
    other = false;
    return found;
  };
  for (const character of text.normalize("NFD")) {
    const codePoint = character.codePointAt(0) ?? 0;
    if (SKIPPED.test(character)) continue;
    if (codePoint < 0x80 && ASCII_ALPHANUMERIC.test(character)) {
      wordLike = true;
      continue;
    }
    if (imitatedAscii(codePoint) !== undefined) {
      imitating += 1;
      // A symbol alone (`10 × 3`) reads as what it is; beside letters or digits (`adm∣n`) it passes for one.
      if (LETTER_OR_NUMBER.test(character)) wordLike = true;
      continue;
    }
    if (SEPARATOR.test(character)) {
      if (endRun()) return true;
      continue;
    }
    other = true;
  }
  return endRun();
}

/** `text` with each character that imitates ASCII letters or digits replaced by them. */
function readAsAscii(text: string): string {
  let out = "";
  for (const character of text) out += imitatedAscii(character.codePointAt(0) ?? 0) ?? character;
  return out;
}

export interface LookAlike {
  /**
   * `mixed_script`: one word mixes scripts, or the value mixes Latin with a script
   * whose letters pass for Latin; `look_alike`: some run of the value reads as
   * ASCII letters and digits that it is not (UTS #39 confusables).
   */
  flags: ("mixed_script" | "look_alike")[];
  /** Every script the value's letters belong to, sorted. */
  scripts: string[];
  /** With `look_alike`: the value's UTS #39 skeleton, neutralised and isolated like the value. */
  skeleton?: string;
  /** With `look_alike`: the value with each look-alike character replaced by the ASCII it imitates. */
  reads_as?: string;
}

/**
 * Whether `value` may impersonate other text with look-alike letters: a run of
 * it reads as ASCII it is not (`look_alike`: `pаypal` with a Cyrillic а, a
 * registrant e-mail spelt in Lisu, `ɑdmin`, `𝐚𝐝𝐦𝐢𝐧`), or a word mixes scripts or
 * Latin sits beside a script whose letters pass for Latin (`mixed_script`).
 * Undefined when none of these.
 */
export function findLookAlike(value: string): LookAlike | undefined {
  // ASCII alone can neither mix scripts nor imitate ASCII.
  if (ASCII.test(value)) return undefined;
  const all = new Set<string>();
  let mixedWord = false;
  for (const [word] of value.matchAll(WORD)) {
    const scripts = new Set<string>();
    for (const character of word) {
      const code = character.charCodeAt(0);
      if (code < 0x80) {
        if (!((code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a))) continue;
      } else if (!LETTER.test(character) || NO_SCRIPT.test(character)) {
        continue;
      }
      const script = scriptOf(character);
      scripts.add(script);
      all.add(script);
    }
    if (!isOneWritingSystem(scripts)) mixedWord = true;
  }
  const latinBesideLookAlike = all.has("Latin") && [...all].some((script) => LATIN_LOOK_ALIKE_SCRIPTS.has(script));
  const flags: LookAlike["flags"] = [];
  if (mixedWord || latinBesideLookAlike) flags.push("mixed_script");
  const lookAlike = readsAsAscii(value);
  if (lookAlike) flags.push("look_alike");
  if (flags.length === 0) return undefined;
  const found: LookAlike = { flags, scripts: [...all].sort() };
  if (lookAlike) {
    found.skeleton = displayWholeValue(skeleton(value));
    found.reads_as = displayWholeValue(readAsAscii(value));
  }
  return found;
}
