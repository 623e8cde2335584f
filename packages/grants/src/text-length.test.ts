import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { generateReleaseKeys, parseRelease, signRelease, verifyRelease } from "./release.js";
import { ready } from "./sodium.js";
import { countUtf8Length, utf8Length, utf8OfParts } from "./text-bytes.js";

beforeAll(async () => {
  await ready();
});

/** Runs `run` as a browser would: no global Buffer. */
function withoutBuffer<T>(run: () => T): T {
  const saved = globalThis.Buffer;
  Reflect.deleteProperty(globalThis, "Buffer");
  try {
    return run();
  } finally {
    globalThis.Buffer = saved;
  }
}

describe("UTF-8 lengths without Buffer", () => {
  it("counts what TextEncoder writes, lone surrogates included", () => {
    const encoder = new TextEncoder();
    const text = fc.oneof(
      fc.string({ unit: "binary" }),
      fc.string({ unit: "grapheme" }),
      fc.constantFrom("\ud800", "a\udc00b", "\ud83d\ude00\ud83d", "é漢\u2028"),
    );
    fc.assert(
      fc.property(text, (value) => {
        expect(countUtf8Length(value)).toBe(encoder.encode(value).length);
        expect(utf8Length(value)).toBe(encoder.encode(value).length);
      }),
      { numRuns: 500 },
    );
  });

  it("reads, verifies and writes a release's message with no global Buffer, as in a browser", () => {
    const key = generateReleaseKeys();
    const text = signRelease({ schema: 1, hash: "d".repeat(64), sequence: 1, previous: null, integrations: [{ id: "démo", name: "✓ \ud83d\ude00" }] }, [key]);
    const respelled = JSON.stringify(JSON.parse(text), null, 1);
    withoutBuffer(() => {
      expect(parseRelease(text).manifestBytes).toBeDefined();
      expect(verifyRelease(text, { trustedKeys: [key.publicKey] }).key).toBe(key.publicKey);
      // Not laid out as signRelease writes it: the canonical message is written, piece by piece.
      expect(verifyRelease(respelled, { trustedKeys: [key.publicKey] }).manifestBytes).toBeUndefined();
      expect(utf8OfParts(["a", "é", "\ud83d\ude00"]).length).toBe(7);
    });
  });
});
