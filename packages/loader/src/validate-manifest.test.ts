import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { manifestFiles } from "@eleven-integrations/manifests";
import { parseManifest } from "@eleven-integrations/schema";
import { fastManifestCheck, validateManifest } from "./validate-manifest.js";
import { validManifest } from "./__fixtures__/valid-manifest.js";
import { nearMisses, refusedCases, type MutableManifest } from "./__fixtures__/manifest-cases.js";
import { anyJson, mutate } from "./__fixtures__/random-mutation.js";
import { allThirdReleaseFields, prototypeKeyAttacks, thirdReleaseRefusals } from "./__fixtures__/third-release-cases.js";

/**
 * The fast path and zod give the same verdict; where both accept, the manifest is what zod returns.
 * The same for the value as JSON.parse makes it from the value's JSON text, checked in the fast
 * path's parsed-JSON mode (the loader's, for the texts it parses itself).
 */
function agree(json: unknown): boolean {
  const zod = parseManifest(structuredClone(json));
  const fast = fastManifestCheck(json);
  expect(fast, `fast path ${fast ? "accepts" : "refuses"} what zod ${zod.ok ? "accepts" : "refuses"}`).toBe(zod.ok);
  if (zod.ok) expect(validateManifest(json)).toEqual(zod);
  const text = JSON.stringify(json);
  if (text !== undefined) {
    const parsedVerdict = parseManifest(JSON.parse(text)).ok;
    const parsedFast = fastManifestCheck(JSON.parse(text), true);
    expect(parsedFast, `parsed-JSON mode ${parsedFast ? "accepts" : "refuses"} what zod ${parsedVerdict ? "accepts" : "refuses"}`).toBe(parsedVerdict);
  }
  return fast;
}

function changed(change: (manifest: MutableManifest) => void): MutableManifest {
  const manifest = validManifest() as MutableManifest;
  change(manifest);
  return manifest;
}

/** A thousand manifests as a large registry holds them: each shipped one under other ids and names. */
function generated(): unknown[] {
  return Array.from({ length: 1000 }, (_, index) => {
    const source = manifestFiles[index % manifestFiles.length]?.json as Record<string, unknown>;
    return { ...structuredClone(source), id: `generated-${String(index).padStart(4, "0")}`, name: `${String(source.name)} ${index}` };
  });
}

describe("the compiled fast path gives zod's verdict", () => {
  it.each(refusedCases)("refuses %s", (_name, change) => {
    expect(agree(changed(change))).toBe(false);
  });

  it.each(nearMisses)("accepts %s", (_name, change) => {
    expect(agree(changed(change))).toBe(true);
  });

  it.each(thirdReleaseRefusals)("refuses the third-release field misuse: %s", (_name, change) => {
    expect(agree(changed(change))).toBe(false);
  });

  it("accepts every third-release field at once", () => {
    expect(agree(changed(allThirdReleaseFields))).toBe(true);
  });

  it.each(prototypeKeyAttacks)("refuses a prototype key in %s", (_name, text) => {
    expect(agree(JSON.parse(text))).toBe(false);
  });

  it.each(manifestFiles.map(({ file, json }) => [file, json] as const))("accepts the shipped %s", (_file, json) => {
    expect(agree(json)).toBe(true);
  });

  it("accepts 1,000 generated manifests", () => {
    for (const json of generated()) expect(agree(json)).toBe(true);
  });

  it("agrees on random mutations of a valid manifest, as a manifest file can hold them", () => {
    fc.assert(
      fc.property(fc.array(fc.nat(50), { minLength: 1, maxLength: 6 }), anyJson, fc.integer({ min: 0, max: 2 }), (path, replacement, action) => {
        // Through JSON text, as manifests arrive: a key on an array (`ops.x`) cannot be written in a file.
        agree(JSON.parse(JSON.stringify(mutate(validManifest(), path, replacement, action))));
      }),
      { numRuns: 1500 },
    );
  });

  it("in parsed-JSON mode still leaves a __proto__ key to zod, in a record and in an object", () => {
    const text = JSON.stringify(validManifest());
    const inHeaders = text.replace('"headers":{', '"headers":{"__proto__":"x",');
    expect(inHeaders).not.toBe(text);
    expect(fastManifestCheck(JSON.parse(inHeaders), true)).toBe(false);
    const inAuth = text.replace('"auth":{', '"auth":{"__proto__":{"kind":"none"},');
    expect(fastManifestCheck(JSON.parse(inAuth), true)).toBe(false);
    expect(fastManifestCheck(JSON.parse(text), true)).toBe(true);
  });

  it("leaves to zod what it cannot take as it is: a __proto__ key, a non-plain object, a key on an array, a non-finite number", () => {
    expect(fastManifestCheck(changed((m) => void Object.assign(m.ops, { extra: [] })))).toBe(false);
    const withProto = JSON.parse('{"__proto__": "x", "Accept": "application/json"}') as unknown;
    expect(fastManifestCheck(changed((m) => void (m.auth.headers = withProto)))).toBe(false);
    expect(fastManifestCheck(changed((m) => void (m.auth = Object.assign(Object.create({ inherited: 1 }), m.auth))))).toBe(false);
    expect(fastManifestCheck(changed((m) => void ((m.ops[0] as Record<string, unknown>).args = { per_page: { max_length: Number.POSITIVE_INFINITY } })))).toBe(
      false,
    );
  });
});
