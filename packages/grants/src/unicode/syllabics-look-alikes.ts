/**
 * Unified Canadian Aboriginal Syllabics that pass for Latin capitals but that
 * confusables.txt does not map to ASCII (it maps ᑭ to P and ᗷ to B, but leaves
 * ᑕ and ᗩ out, and maps ᑎ and ᗯ to Armenian Ո and Cyrillic Ѡ). These are the
 * letters "fancy text" generators put in for A, C, E, G, N, S, W and Z.
 */
const SYLLABICS_LOOK_ALIKES: ReadonlyMap<number, string> = new Map([
  [0x15e9, "A"], // ᗩ
  [0x1455, "C"], // ᑕ
  [0x15f4, "E"], // ᗴ
  [0x161c, "G"], // ᘜ
  [0x144e, "N"], // ᑎ
  [0x1515, "S"], // ᔕ
  [0x15ef, "W"], // ᗯ
  [0x1614, "Z"], // ᘔ
]);

/** The Latin capital a Canadian Syllabics letter passes for where confusables.txt has no ASCII prototype for it, or undefined. */
export function syllabicsLookAlike(codePoint: number): string | undefined {
  return SYLLABICS_LOOK_ALIKES.get(codePoint);
}
