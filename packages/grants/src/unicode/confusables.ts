import { CONFUSABLES_TABLE } from "./confusables-table.js";

let prototypes: Map<number, string> | undefined;

function loadPrototypes(): Map<number, string> {
  const map = new Map<number, string>();
  let source = 0;
  for (const entry of CONFUSABLES_TABLE.split(",")) {
    const [delta = "", target = ""] = entry.split(":");
    source += Number.parseInt(delta, 36);
    map.set(source, String.fromCodePoint(...target.split(".").map((codePoint) => Number.parseInt(codePoint, 36))));
  }
  return map;
}

/** The prototype Unicode's confusables.txt maps `codePoint` to, or undefined when it maps to itself. */
export function confusablePrototype(codePoint: number): string | undefined {
  prototypes ??= loadPrototypes();
  return prototypes.get(codePoint);
}

const DEFAULT_IGNORABLE = /\p{Default_Ignorable_Code_Point}/u;

/**
 * The UTS #39 skeleton of `text` (section 4, "Confusable Detection"): NFD, every
 * default-ignorable code point removed, each code point replaced by its
 * prototype from confusables.txt, NFD again. Two strings with the same
 * skeleton are confusable.
 */
export function skeleton(text: string): string {
  let out = "";
  for (const character of text.normalize("NFD")) {
    if (DEFAULT_IGNORABLE.test(character)) continue;
    out += confusablePrototype(character.codePointAt(0) ?? 0) ?? character;
  }
  return out.normalize("NFD");
}
