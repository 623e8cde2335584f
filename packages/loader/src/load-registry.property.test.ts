import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { loadRegistry } from "./load-registry.js";
import { RegistryError } from "./registry-error.js";
import { validManifest } from "./__fixtures__/valid-manifest.js";

type Json = unknown;

/** Replaces, deletes or adds one value somewhere in the manifest tree. */
function mutate(root: Json, pathChoices: number[], replacement: Json, action: number): Json {
  const copy = structuredClone(root) as Record<string, Json>;
  let node: Json = copy;
  for (const choice of pathChoices) {
    if (node === null || typeof node !== "object") break;
    const keys = Object.keys(node);
    if (keys.length === 0) break;
    const key = keys[choice % keys.length] as string;
    const child = (node as Record<string, Json>)[key];
    const isLast = child === null || typeof child !== "object" || choice % 3 === 0;
    if (isLast) {
      const container = node as Record<string, Json>;
      if (action === 0) delete container[key];
      else if (action === 1) container[key] = replacement;
      else container[`${key}_x`] = replacement;
      return copy;
    }
    node = child;
  }
  return copy;
}

const anyJson = fc.oneof(
  fc.string(),
  fc.constantFrom("{", "..", "/{owner}", "https://127.0.0.1", "{title}", "write", "GET", "__proto__", "\u202e", "a\r\nb"),
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.string(), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 8 }), fc.string(), { maxKeys: 3 }),
);

describe("random mutations of a valid manifest", () => {
  it("either load whole or raise RegistryError, never crash and never half-load", () => {
    fc.assert(
      fc.property(
        fc.array(fc.nat(50), { minLength: 1, maxLength: 6 }),
        anyJson,
        fc.integer({ min: 0, max: 2 }),
        (pathChoices, replacement, action) => {
          const other = { ...validManifest(), id: "other" };
          const mutated = mutate(validManifest(), pathChoices, replacement, action);
          let registry;
          try {
            registry = loadRegistry([
              { file: "other.json", json: other },
              { file: "example.json", json: mutated },
            ]);
          } catch (error) {
            expect(RegistryError.isInstance(error)).toBe(true);
            const issues = (error as RegistryError).issues;
            expect(issues.length).toBeGreaterThan(0);
            for (const issue of issues) {
              expect(typeof issue.path).toBe("string");
              expect(issue.message.length).toBeGreaterThan(0);
            }
            return;
          }
          // Loaded whole: both manifests, every op compiled.
          expect(registry.integrations()).toHaveLength(2);
          for (const manifest of registry.integrations()) {
            for (const op of manifest.ops) expect(registry.operation(manifest.id, op.id)).toBeDefined();
          }
        },
      ),
      { numRuns: 600 },
    );
  });
});
