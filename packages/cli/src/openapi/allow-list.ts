import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { z } from "zod";
import { SpecError } from "./spec-error.js";

const entrySchema = z.strictObject({
  integration: z.string().min(1),
  /** An op id, or `*` for every op of the integration. */
  op: z.string().min(1),
  rule: z.string().min(1),
  /** Narrows the entry to one key, arg or field (`query token`, `field error`); absent: every subject of the rule. */
  subject: z.string().min(1).optional(),
  /** Why the spec is wrong rather than the manifest: required, shown beside every mismatch it allows. */
  reason: z.string().trim().min(10, "say why the spec is wrong (at least 10 characters)"),
});

const allowListSchema = z.strictObject({ $comment: z.string().optional(), allow: z.array(entrySchema) });

export type AllowEntry = z.infer<typeof entrySchema>;

/** Reads an allow-list file: the mismatches that are the spec's fault, each with its reason. */
export async function readAllowList(file: string | undefined, cwd: string): Promise<AllowEntry[]> {
  if (file === undefined) return [];
  let json: unknown;
  try {
    json = JSON.parse(await readFile(resolve(cwd, file), "utf8"));
  } catch (error) {
    throw new SpecError("invalid_allow_list", `cannot read the allow-list ${file}: ${(error as Error).message}`);
  }
  const parsed = allowListSchema.safeParse(json);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join(".") || "$"}: ${issue.message}`).join("; ");
    throw new SpecError("invalid_allow_list", `the allow-list ${file} is not valid: ${problems}`);
  }
  return parsed.data.allow;
}

/** The entry that allows a mismatch, if any. */
export function allowing(entries: readonly AllowEntry[], integration: string, op: string, mismatch: { rule: string; subject: string }): AllowEntry | undefined {
  return entries.find(
    (entry) =>
      entry.integration === integration &&
      (entry.op === "*" || entry.op === op) &&
      entry.rule === mismatch.rule &&
      (entry.subject === undefined || entry.subject === mismatch.subject),
  );
}
