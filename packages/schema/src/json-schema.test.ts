import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { manifestJsonSchema } from "./json-schema.js";

describe("manifest.schema.json", () => {
  it("is the committed output of the zod schema (run `pnpm --filter @eleven-integrations/schema generate` after changing it)", () => {
    const committed = readFileSync(new URL("../manifest.schema.json", import.meta.url), "utf8");
    expect(committed).toBe(`${JSON.stringify(manifestJsonSchema(), null, 2)}\n`);
  });

  it("closes every object to unknown keys and allows $schema", () => {
    const schema = manifestJsonSchema() as { additionalProperties: unknown; properties: Record<string, unknown> };
    expect(schema.additionalProperties).toBe(false);
    expect(schema.properties).toHaveProperty("$schema");
    expect(JSON.stringify(schema)).not.toContain('"additionalProperties":true');
  });
});
