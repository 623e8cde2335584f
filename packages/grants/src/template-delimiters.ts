import { REPLACEMENT_CHARACTER } from "@eleven-integrations/schema";
import { confusablePrototype } from "./unicode/confusables.js";

/**
 * Quotation marks (Unicode Quotation_Mark, initial and final punctuation: " ' “ ” „ ‟
 * « » ‹ › ‘ ’ ‚ ‛ 「 」 『 』 〝 〞 ＂ ＇...) and the quotation ornaments (❛ ❜ ❝ ❞ ❮ ❯ 🙶 🙷 🙸).
 */
const QUOTATION = /[\p{Quotation_Mark}\p{Pi}\p{Pf}\u275B-\u2760\u276E\u276F\u{1F676}-\u{1F678}]/u;
const BRACKET = /[\p{Ps}\p{Pe}]/u;
/** Letters proper: a letter whose prototype is an apostrophe (Hebrew yod) is a letter, not a quote. */
const LETTER_PROPER = /[\p{Lu}\p{Ll}\p{Lt}\p{Lo}]/u;
const APOSTROPHES = /^'+$/;
const LETTER_OR_MARK = /[\p{L}\p{M}]/u;
const LETTER = /\p{L}/u;
const NON_ASCII_PUNCTUATION_OR_SYMBOL = /[^\0-\x7F]/u;
const PUNCTUATION_OR_SYMBOL = /[\p{P}\p{S}]/u;
const ASCII_WORD = /^[A-Za-z0-9 ]$/;
/** ASCII with no quote and no bracket: nothing in it can pass for a template's delimiter. */
const NOTHING_TO_NEUTRALISE = /^[\x20\x21\x23-\x26\x2a-\x5a\x5c\x5e\x5f\x61-\x7a\x7c\x7e]*$/;

/** What a character passes for: its UTS #39 prototype, else its compatibility form (fullwidth `）` is `)`), else itself. */
function prototypeOf(character: string): string {
  return confusablePrototype(character.codePointAt(0) ?? 0) ?? character.normalize("NFKC");
}

/**
 * A character that can open or close a quotation in a line: a quotation mark or
 * ornament, or any other non-letter whose UTS #39 prototype is apostrophes
 * (` ´ ′ ″ ˝ ˮ 〃 ＇, the modifier letters ʹ ʻ ʼ ˈ...).
 */
export function isQuoteLike(character: string): boolean {
  if (character.length === 1 && character.charCodeAt(0) < 0x80) return character === '"' || character === "'" || character === "`";
  if (QUOTATION.test(character)) return true;
  return !LETTER_PROPER.test(character) && APOSTROPHES.test(prototypeOf(character));
}

/** A quote-like character that reads as an apostrophe (`'`, `’`, `ʼ`...): kept between two letters (`O’Brien`, `don't`). */
function isApostrophe(character: string): boolean {
  return character === "'" || prototypeOf(character) === "'";
}

/** What a template's own text uses to mark values off, and what else a value could imitate. */
export interface TemplateDelimiters {
  /** Prototypes of the brackets in the template's text: a value's bracket of the same prototype is neutralised. */
  brackets: Set<string>;
  /** Prototypes of the template's other non-ASCII punctuation and symbols (→, —, ·): a value holding one is flagged. */
  symbols: Set<string>;
}

/** The delimiters of a template's literal text. */
export function templateDelimiters(literals: readonly string[]): TemplateDelimiters {
  const brackets = new Set<string>();
  const symbols = new Set<string>();
  for (const literal of literals) {
    for (const character of literal) {
      if (BRACKET.test(character)) brackets.add(prototypeOf(character));
      else if (!isQuoteLike(character) && NON_ASCII_PUNCTUATION_OR_SYMBOL.test(character) && PUNCTUATION_OR_SYMBOL.test(character)) {
        symbols.add(prototypeOf(character));
      }
    }
  }
  return { brackets, symbols };
}

/**
 * A value's text with every character that could pass for the template's own
 * delimiters shown as U+FFFD: every quote-like character (an apostrophe between
 * two letters excepted), and every bracket whose prototype is one the template's
 * text uses. `lookAlike` is true when something was replaced, or when the value
 * holds one of the template's other non-ASCII punctuation or symbols (kept, flagged).
 */
export function neutraliseDelimiters(text: string, delimiters: TemplateDelimiters): { text: string; lookAlike: boolean } {
  if (NOTHING_TO_NEUTRALISE.test(text)) return { text, lookAlike: false };
  const characters = Array.from(text);
  let lookAlike = false;
  let out = "";
  characters.forEach((character, index) => {
    if (ASCII_WORD.test(character)) {
      out += character;
      return;
    }
    if (isQuoteLike(character)) {
      const previous = characters[index - 1];
      const next = characters[index + 1];
      const inWord = previous !== undefined && next !== undefined && LETTER_OR_MARK.test(previous) && LETTER.test(next);
      if (!(inWord && isApostrophe(character))) {
        out += REPLACEMENT_CHARACTER;
        lookAlike = true;
        return;
      }
    } else if (BRACKET.test(character) || PUNCTUATION_OR_SYMBOL.test(character)) {
      const prototype = prototypeOf(character);
      if (delimiters.brackets.has(prototype) && (BRACKET.test(character) || BRACKET.test(prototype))) {
        out += REPLACEMENT_CHARACTER;
        lookAlike = true;
        return;
      }
      if (delimiters.symbols.has(prototype)) lookAlike = true;
    }
    out += character;
  });
  return { text: out, lookAlike };
}
