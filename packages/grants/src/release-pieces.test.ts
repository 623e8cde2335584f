import { canonicalJson } from "@eleven-integrations/schema";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readRegistryPieces } from "./release-pieces.js";

const strict = new TextDecoder("utf-8", { fatal: true });
const bytesOf = (text: string) => new TextEncoder().encode(text);

/** Strings that look like JSON's own punctuation and escapes, and non-ASCII text. */
const tricky = fc.oneof(
  fc.string(),
  fc.string({ unit: "grapheme" }),
  fc.constantFrom('"', "\\", '\\"', ",", "[", "]", "{", "}", '","', "Démo ✓", "\ud83d\ude00", "\u2028"),
);
const value = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    tricky,
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie("value"), { maxLength: 3 }),
    fc.dictionary(tricky, tie("value"), { maxKeys: 3 }),
  ),
})).value;

/** A release's registry object, as signRelease writes it: keys sorted, RFC 8785. */
const registryText = (integrations: unknown[]) => canonicalJson({ schema: 1, hash: "a".repeat(64), sequence: 1, previous: null, integrations });

describe("readRegistryPieces", () => {
  it("reads a registry as parsing the whole does, with each manifest's text and the array's bytes", () => {
    fc.assert(
      fc.property(fc.array(value, { maxLength: 5 }), (integrations) => {
        const text = registryText(integrations);
        const pieces = readRegistryPieces(bytesOf(text));
        expect(pieces?.registry).toEqual(JSON.parse(text));
        expect(pieces?.bytes.manifests.map((manifest) => strict.decode(manifest))).toEqual(integrations.map((item) => canonicalJson(item)));
        expect(strict.decode(pieces?.bytes.array)).toBe(canonicalJson(integrations));
      }),
      { numRuns: 300 },
    );
  });

  it("reads JSON spaced out too, each manifest's text keeping the space around it, so the texts joined are the array", () => {
    fc.assert(
      fc.property(fc.array(value, { minLength: 1, maxLength: 4 }), fc.constantFrom(1, 2, "\t", " \r\n"), (integrations, space) => {
        const text = JSON.stringify({ hash: "h", integrations, previous: null, schema: 1, sequence: 2 }, null, space);
        const pieces = readRegistryPieces(bytesOf(`\n ${text} \n`));
        expect(pieces?.registry).toEqual(JSON.parse(text));
        expect(pieces?.bytes.manifests.map((manifest) => JSON.parse(strict.decode(manifest)))).toEqual(
          integrations.map((item) => JSON.parse(JSON.stringify(item))),
        );
        expect(`[${pieces?.bytes.manifests.map((manifest) => strict.decode(manifest)).join(",")}]`).toBe(strict.decode(pieces?.bytes.array));
      }),
      { numRuns: 150 },
    );
  });

  it("whatever bytes it is given, it reads only what is UTF-8 JSON, and then what parsing the whole reads", () => {
    const base = fc.array(value, { minLength: 1, maxLength: 3 }).map((integrations) => bytesOf(registryText(integrations)));
    fc.assert(
      fc.property(base, fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 3 }), (bytes, changes) => {
        const changed = Uint8Array.from(bytes);
        for (const [at, byte] of changes) changed[at % changed.length] = byte;
        const pieces = readRegistryPieces(changed);
        if (pieces === undefined) return;
        const whole: unknown = JSON.parse(strict.decode(changed));
        expect(pieces.registry).toEqual(whole);
        expect(pieces.bytes.manifests.map((manifest) => JSON.parse(strict.decode(manifest)))).toEqual((whole as { integrations: unknown[] }).integrations);
      }),
      { numRuns: 2000 },
    );
  });

  it("refuses bytes that are not well-formed UTF-8 inside a string: overlong, surrogate, past U+10FFFF, cut short", () => {
    const head = bytesOf('{"integrations":[{"name":"');
    const tail = bytesOf('"}]}');
    const withBytes = (...inner: number[]) => Uint8Array.from([...head, ...inner, ...tail]);
    expect(readRegistryPieces(withBytes(0x41))).toBeDefined();
    expect(readRegistryPieces(withBytes(0xc3, 0xa9))?.bytes.manifests.map((manifest) => strict.decode(manifest))).toEqual(['{"name":"é"}']);
    expect(readRegistryPieces(withBytes(0xf0, 0x9f, 0x98, 0x80))).toBeDefined();
    for (const broken of [
      [0xc0, 0x80],
      [0xe0, 0x80, 0x80],
      [0xed, 0xa0, 0x80],
      [0xf4, 0x90, 0x80, 0x80],
      [0xf5, 0x80, 0x80, 0x80],
      [0xc3],
      [0x80],
      [0xe2, 0x82],
    ]) {
      expect(readRegistryPieces(withBytes(...broken))).toBeUndefined();
      expect(() => strict.decode(withBytes(...broken))).toThrow();
    }
  });

  it("refuses a byte order mark where a value starts, as parsing the whole does, and keeps one inside a string", () => {
    for (const text of ['{"integrations":[\ufeff{"id":"a"}]}', '{"hash":\ufeff"x","integrations":[]}', '\ufeff{"integrations":[]}']) {
      expect(readRegistryPieces(bytesOf(text))).toBeUndefined();
      expect(() => JSON.parse(text)).toThrow(SyntaxError);
    }
    const inStrings = '{"integrations":[{"id":"\ufeffa"}],"\ufeffz":"x"}';
    expect(readRegistryPieces(bytesOf(inStrings))?.registry).toEqual(JSON.parse(inStrings));
  });

  it("refuses keys that are not strictly increasing, a __proto__ key and a registry without an integrations array", () => {
    for (const text of [
      '{"hash":"x","integrations":[{"id":"a"}],"integrations":[{"id":"b"}]}',
      '{"integrations":[{"id":"a"}],"hash":"x"}',
      '{"__proto__":{},"integrations":[]}',
      '{"hash":"x","previous":null}',
      '{"integrations":{"id":"a"}}',
      '{"integrations":[]} []',
    ]) {
      expect(readRegistryPieces(bytesOf(text))).toBeUndefined();
    }
    expect(readRegistryPieces(bytesOf('{"integrations":[]}'))?.bytes.manifests).toEqual([]);
  });
});
