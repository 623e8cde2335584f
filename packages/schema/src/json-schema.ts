import { z } from "zod";
import { manifestSchema } from "./manifest-schema.js";

export const MANIFEST_SCHEMA_ID = "https://unpkg.com/@eleven-integrations/schema/manifest.schema.json";

/**
 * The JSON Schema editors use to complete and check a manifest. Rules that cross
 * fields (placeholders, confirm on writes) live only in the zod schema, which
 * `integrations validate` runs.
 */
export function manifestJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(manifestSchema, { target: "draft-2020-12", unrepresentable: "any" }) as Record<string, unknown>;
  return { ...schema, $id: MANIFEST_SCHEMA_ID, title: "Eleven integrations manifest v1" };
}
