// Writes the sidecar's OpenAPI description from the zod schemas (run after tsc):
// `dist/openapi.json` at build time (what the package ships and the sidecar serves),
// `openapi.json` by `pnpm generate` (the committed copy a test keeps in step).
import { writeFileSync } from "node:fs";
import { sidecarOpenApi } from "../dist/openapi.js";

const target = process.argv[2];
if (target === undefined) throw new Error("usage: node scripts/generate-openapi.mjs <file>");
writeFileSync(new URL(`../${target}`, import.meta.url), `${JSON.stringify(sidecarOpenApi(), null, 2)}\n`);
