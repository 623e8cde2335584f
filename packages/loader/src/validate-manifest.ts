import { manifestSchema, parseManifest, refusedKeysOf, rulePredicateOf, type Manifest, type ParseManifestResult } from "@eleven-integrations/schema";
import { compileValidator } from "./compile-validator.js";

// The schema's refinements run as its plain predicates (same verdicts, no issue objects), and its search of the raw
// JSON for prototype keys as part of the one walk; zod runs only for a manifest this refuses.
const isValid = compileValidator(manifestSchema, { plainCheck: rulePredicateOf, refusedKeys: refusedKeysOf });

/** The fast path alone: true when the schema accepts `json` exactly as it is (see compileValidator). */
export function fastManifestCheck(json: unknown, parsedJson = false): boolean {
  return isValid(json, parsedJson);
}

/**
 * Validates one manifest: the compiled fast path first, and zod (`parseManifest`)
 * only when it does not accept the value, for zod's verdict and its messages.
 * On the fast path the manifest is `json` itself, not a copy. `parsedJson`: `json` is exactly
 * what `JSON.parse` returned (see CompiledValidator); the verdict is the same either way.
 */
export function validateManifest(json: unknown, parsedJson = false): ParseManifestResult {
  if (isValid(json, parsedJson)) return { ok: true, manifest: json as Manifest };
  return parseManifest(json);
}
