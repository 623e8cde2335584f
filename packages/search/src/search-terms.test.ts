import { describe, expect, it } from "vitest";
import { tokenize } from "./search-terms.js";

/** The tokenizer's definition: runs of Unicode letters and numbers. */
const byDefinition = (text: string) => text.split(/[^\p{L}\p{N}]+/u).filter((token) => token !== "");

/** A seeded generator of texts mixing ASCII words, separators and non-ASCII letters, marks and numbers. */
function* texts(count: number): Generator<string> {
  const pieces = [
    "issues",
    "create",
    "_",
    ".",
    " ",
    "-",
    "42",
    "Ünïcode",
    "é",
    "\u0301",
    "٣",
    "漢字",
    "\ud83d\ude00",
    "\u2028",
    "",
    "A",
    "z9",
    "{x}",
    "/",
    "\t",
  ];
  let seed = 7;
  const next = () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed;
  };
  for (let index = 0; index < count; index += 1) {
    let text = "";
    const length = next() % 12;
    for (let piece = 0; piece < length; piece += 1) text += pieces[next() % pieces.length];
    yield text;
  }
}

describe("tokenize", () => {
  it("splits ASCII and non-ASCII text alike into runs of letters and numbers", () => {
    for (const text of texts(5000)) expect(tokenize(text)).toEqual(byDefinition(text));
    expect(tokenize("")).toEqual([]);
    expect(tokenize("  ")).toEqual([]);
    expect(tokenize("issues.create post_message")).toEqual(["issues", "create", "post", "message"]);
  });
});
