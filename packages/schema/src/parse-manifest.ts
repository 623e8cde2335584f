import type { z } from "zod";
import { manifestSchema, type Manifest } from "./manifest-schema.js";

export interface ManifestIssue {
  /** JSON path of the problem, such as `ops[2].confirm`; `$` for the manifest itself. */
  path: string;
  message: string;
}

export type ParseManifestResult = { ok: true; manifest: Manifest } | { ok: false; issues: ManifestIssue[] };

/** Validates one manifest against schema v1, every cross-field rule included. */
export function parseManifest(json: unknown): ParseManifestResult {
  const result = manifestSchema.safeParse(json);
  if (result.success) return { ok: true, manifest: result.data };
  return { ok: false, issues: result.error.issues.map(toManifestIssue) };
}

function toManifestIssue(issue: z.core.$ZodIssue): ManifestIssue {
  if (issue.code === "unrecognized_keys") {
    return { path: formatJsonPath(issue.path), message: `unknown key${issue.keys.length > 1 ? "s" : ""} ${issue.keys.map((key) => `"${key}"`).join(", ")}` };
  }
  if (issue.code === "invalid_key") {
    return { path: formatJsonPath(issue.path), message: issue.issues.map((inner) => inner.message).join("; ") };
  }
  return { path: formatJsonPath(issue.path), message: issue.message };
}

/** `["ops", 2, "confirm"]` -> `ops[2].confirm`; keys that are not identifiers are quoted. */
export function formatJsonPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const key of path) {
    if (typeof key === "number") out += `[${key}]`;
    else if (typeof key === "string" && /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key)) out += out === "" ? key : `.${key}`;
    else out += `[${JSON.stringify(String(key))}]`;
  }
  return out === "" ? "$" : out;
}
