/**
 * Scripts a letter is told apart by. A letter of any other script counts as
 * "Other"; Common and Inherited characters (digits, punctuation, marks) belong
 * to no script and never make a word mixed.
 */
const SCRIPTS: [string, RegExp][] = [
  ["Latin", /\p{Script=Latin}/u],
  ["Cyrillic", /\p{Script=Cyrillic}/u],
  ["Greek", /\p{Script=Greek}/u],
  ["Armenian", /\p{Script=Armenian}/u],
  ["Cherokee", /\p{Script=Cherokee}/u],
  ["Coptic", /\p{Script=Coptic}/u],
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
const ONE_WRITING_SYSTEM = [
  new Set(["Latin", "Han", "Hiragana", "Katakana"]),
  new Set(["Latin", "Han", "Bopomofo"]),
  new Set(["Latin", "Han", "Hangul"]),
];

/** Scripts whose letters pass for Latin ones. */
const LATIN_LOOK_ALIKE_SCRIPTS = new Set(["Cyrillic", "Greek", "Armenian", "Cherokee", "Coptic"]);

/**
 * Letters of those scripts that look like Latin letters (from Unicode's
 * confusables.txt, the common ones): a word written only with them reads as a
 * Latin word ("аррӏе" in Cyrillic reads as "apple").
 */
const LATIN_LOOK_ALIKES = new Set(
  Array.from(
    "аеорсуххіјѕӏԁԛԝһԍаАВЕКМНОРСТХУІЈЅԌӀ" + // Cyrillic
      "αβεικνορτυχΑΒΕΖΗΙΚΜΝΟΡΤΥΧ" + // Greek
      "օսոհցզԱՍՕ" + // Armenian
      "ᎪᏴᏟᎠᎬᎻᏆᏦᏞᎷᏒᎡᏚᎢᏙᏔᏃᎳ", // Cherokee
  ),
);

const LETTER = /\p{L}/u;
const NO_SCRIPT = /[\p{Script=Common}\p{Script=Inherited}]/u;
const WORD = /[\p{L}\p{M}\p{Nd}_-]+/gu;

function scriptOf(letter: string): string {
  for (const [name, pattern] of SCRIPTS) if (pattern.test(letter)) return name;
  return "Other";
}

function isOneWritingSystem(scripts: Set<string>): boolean {
  if (scripts.size <= 1) return true;
  return ONE_WRITING_SYSTEM.some((allowed) => [...scripts].every((script) => allowed.has(script)));
}

export interface LookAlike {
  /** `mixed_script`: one word mixes scripts, or the value mixes Latin with a script whose letters pass for Latin;
   *  `look_alike`: every letter of the value is a non-Latin letter that passes for a Latin one. */
  kind: "mixed_script" | "look_alike";
  /** Every script the value's letters belong to, sorted. */
  scripts: string[];
}

/**
 * Whether `value` may impersonate other text with look-alike letters: a word
 * that mixes scripts ("pаypal" with a Cyrillic а), Latin beside Cyrillic, Greek,
 * Armenian, Cherokee or Coptic letters anywhere in the value, or a value spelt
 * only with non-Latin letters that look Latin ("аррӏе"). Undefined when none of these.
 */
export function findLookAlike(value: string): LookAlike | undefined {
  const all = new Set<string>();
  let mixedWord = false;
  let letters = 0;
  let passForLatin = 0;
  for (const [word] of value.matchAll(WORD)) {
    const scripts = new Set<string>();
    for (const character of word) {
      if (!LETTER.test(character) || NO_SCRIPT.test(character)) continue;
      const script = scriptOf(character);
      scripts.add(script);
      all.add(script);
      letters += 1;
      if (LATIN_LOOK_ALIKES.has(character)) passForLatin += 1;
    }
    if (!isOneWritingSystem(scripts)) mixedWord = true;
  }
  const latinBesideLookAlike = all.has("Latin") && [...all].some((script) => LATIN_LOOK_ALIKE_SCRIPTS.has(script));
  const scripts = [...all].sort();
  if (mixedWord || latinBesideLookAlike) return { kind: "mixed_script", scripts };
  // The whole value spelt with letters that pass for Latin ones: reads as Latin text that it is not.
  if (letters >= 2 && passForLatin === letters && !all.has("Latin")) return { kind: "look_alike", scripts };
  return undefined;
}
