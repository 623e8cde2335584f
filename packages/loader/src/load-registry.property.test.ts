import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { loadRegistry } from "./load-registry.js";
import type { Registry } from "./registry.js";
import { RegistryError } from "./registry-error.js";
import { validManifest } from "./__fixtures__/valid-manifest.js";
import { anyJson, mutate } from "./__fixtures__/random-mutation.js";

describe("random mutations of a valid manifest", () => {
  it("either load whole or raise RegistryError, never crash and never half-load", () => {
    fc.assert(
      fc.property(fc.array(fc.nat(50), { minLength: 1, maxLength: 6 }), anyJson, fc.integer({ min: 0, max: 2 }), (pathChoices, replacement, action) => {
        const other = { ...validManifest(), id: "other" };
        const mutated = mutate(validManifest(), pathChoices, replacement, action);
        let registry: Registry;
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
      }),
      { numRuns: 600 },
    );
  });
});
