// Writes manifest.schema.json from the zod schema (run after build). A test fails when they drift.
import { writeFileSync } from "node:fs";
import { manifestJsonSchema } from "../dist/json-schema.js";

writeFileSync(new URL("../manifest.schema.json", import.meta.url), `${JSON.stringify(manifestJsonSchema(), null, 2)}\n`);
