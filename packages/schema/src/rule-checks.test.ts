import { describe, expect, it } from "vitest";
import { manifestSchema } from "./manifest-schema.js";
import { notBlank } from "./plain-text.js";
import { rulePredicateOf } from "./rule-checks.js";

interface Node {
  readonly _zod: { readonly def: Record<string, unknown> & { checks?: readonly unknown[] } };
}

/** Every check object reachable from a zod schema's definition tree. */
function checksOf(schema: unknown): unknown[] {
  const found: unknown[] = [];
  const seen = new Set<unknown>();
  const visit = (node: unknown): void => {
    if (typeof node !== "object" || node === null || seen.has(node) || !("_zod" in node)) return;
    seen.add(node);
    const { def } = (node as Node)._zod;
    found.push(...(def.checks ?? []));
    for (const value of Object.values(def)) {
      if (typeof value === "function" && def.type === "lazy") visit((value as () => unknown)());
      else if (Array.isArray(value)) value.forEach(visit);
      else if (typeof value === "object" && value !== null && !("_zod" in value)) Object.values(value).forEach(visit);
      else visit(value);
    }
  };
  visit(schema);
  return found;
}

describe("rule predicates", () => {
  it("cover every refinement of the manifest schema, so the loader's fast path never runs zod's", () => {
    const custom = checksOf(manifestSchema).filter((check) => (check as Node)._zod.def.check === "custom");
    expect(custom.length).toBeGreaterThan(10);
    expect(custom.filter((check) => rulePredicateOf(check) === undefined)).toEqual([]);
  });

  it("notBlank says what trim says about blank text, for every UTF-16 code unit", () => {
    for (let unit = 0; unit < 0x10000; unit += 1) {
      const character = String.fromCharCode(unit);
      expect(notBlank(`${character}${character}`), `U+${unit.toString(16)}`).toBe(character.trim().length > 0);
    }
  });
});
