import { ready } from "@eleven-integrations/grants";
import { beforeAll, describe, expect, it } from "vitest";
import { randomKey } from "../__fixtures__/test-registry.js";
import { negotiateEncoding } from "../catalog/accept-encoding.js";
import { linkify } from "../catalog/catalog-page.js";
import { escapeHtml } from "./html.js";
import { openState } from "../connect/oauth-state.js";
import { pathOnly } from "./logging.js";
import { ifNoneMatchHits } from "../catalog/representation.js";

// Seeded, so a failure reproduces: mulberry32.
function generator(seed: number) {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ALPHABET = [
  ..."<>&\"'`=/ :;,.?#%\\\n\t\u0000\u2028\u202eaZ9-_",
  "https://",
  "javascript:",
  "<script>",
  "</",
  "&amp;",
  "q=",
  "br",
  "gzip",
  "*",
  "W/",
  "\ud800",
  "😀",
];

function randomText(random: () => number, maxParts = 30): string {
  let text = "";
  const parts = Math.floor(random() * maxParts);
  for (let index = 0; index < parts; index += 1) text += ALPHABET[Math.floor(random() * ALPHABET.length)];
  return text;
}

const unescapeHtml = (html: string) =>
  html.replace(/&lt;|&gt;|&quot;|&#39;|&amp;/g, (entity) => ({ "&lt;": "<", "&gt;": ">", "&quot;": '"', "&#39;": "'", "&amp;": "&" })[entity] ?? entity);

beforeAll(async () => {
  await ready();
});

describe("randomised inputs (seeded)", () => {
  const random = generator(20_260_101);
  const samples = Array.from({ length: 2000 }, () => randomText(random));

  it("escapeHtml leaves no markup character and loses nothing", () => {
    for (const text of samples) {
      const escaped = escapeHtml(text);
      expect(escaped).not.toMatch(/[<>"']/);
      expect(unescapeHtml(escaped)).toBe(text);
    }
  });

  it("linkify leaves no markup but its own links, each to https only", () => {
    for (const text of samples) {
      const html = linkify(text);
      const withoutLinks = html.replace(/<a href="https:\/\/[^"<>]*" rel="noopener noreferrer">/g, "").replace(/<\/a>/g, "");
      expect(withoutLinks).not.toMatch(/[<>]/);
    }
  });

  it("negotiateEncoding and ifNoneMatchHits answer every header without throwing", () => {
    for (const text of samples) {
      expect(["br", "gzip", "identity"]).toContain(negotiateEncoding(text));
      expect(typeof ifNoneMatchHits(text, '"abc"')).toBe("boolean");
    }
  });

  it("openState never opens garbage and never throws on it", () => {
    const keys = [randomKey()];
    for (const text of samples) expect(openState(text, keys, 1_800_000_000).ok).toBe(false);
  });

  it("pathOnly never lets a query through", () => {
    for (const text of samples) {
      const url = `/connect/callback?${text}`;
      expect(pathOnly(url)).toBe("/connect/callback?…");
    }
  });
});
