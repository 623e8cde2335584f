import type { z } from "zod";
import type { BodyIssue } from "./http-error-schema.js";

export type BodyResult<T> = { ok: true; value: T } | { ok: false; issues: BodyIssue[] };

function dotPath(path: readonly PropertyKey[]): string {
  return path.map(String).join(".");
}

/**
 * Validates a parsed JSON body exactly as sent: no type is coerced, and every
 * unknown key is its own issue naming the key. The issues are what a 400
 * `invalid_body` answer lists; they name paths, never values.
 */
export function parseBody<T>(schema: z.ZodType<T>, body: unknown): BodyResult<T> {
  const result = schema.safeParse(body);
  if (result.success) return { ok: true, value: result.data };
  const issues: BodyIssue[] = [];
  for (const issue of result.error.issues) {
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) issues.push({ path: dotPath([...issue.path, key]), message: "unknown key" });
    } else {
      issues.push({ path: dotPath(issue.path), message: issue.message });
    }
  }
  return { ok: false, issues };
}
