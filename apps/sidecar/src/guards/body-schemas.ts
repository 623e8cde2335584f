import { z } from "zod";
import type { BodyIssue } from "../http/http-error.js";

const OP_ID = /^[a-z][a-z0-9_]*\.[a-z][a-z0-9_]*$/;
const MAX_OP_ID_LENGTH = 100;

/** `POST /v1/ops`: the grant whose palette is asked for. */
export const opsBodySchema = z.strictObject({
  grant: z.string().min(1),
});

/** `POST /v1/run`: the grant, the op of the grant's integration, its args, and for a write the member's confirmation. */
export const runBodySchema = z.strictObject({
  grant: z.string().min(1),
  op: z.string().max(MAX_OP_ID_LENGTH).regex(OP_ID, "must be an op id such as repos.list"),
  args: z.record(z.string(), z.string()).optional(),
  confirmation: z.string().min(1).optional(),
  /** A `next_page` from an earlier answer for this op and these args: runs the next page. */
  page: z.string().min(1).optional(),
});

/** `POST /v1/revoke`: a revocation the grant's member signed (`integrations revoke`). */
export const revokeBodySchema = z.strictObject({
  revocation: z.string().min(1),
});

/** The body's `op` when it is a well-formed op id (safe to audit), else null. */
export function wellFormedOp(body: unknown): string | null {
  if (typeof body !== "object" || body === null || !("op" in body)) return null;
  const { op } = body;
  return typeof op === "string" && op.length <= MAX_OP_ID_LENGTH && OP_ID.test(op) ? op : null;
}

export type OpsBody = z.infer<typeof opsBodySchema>;
export type RunBody = z.infer<typeof runBodySchema>;
export type RevokeBody = z.infer<typeof revokeBodySchema>;

export type BodyResult<T> = { ok: true; value: T } | { ok: false; issues: BodyIssue[] };

function dotPath(path: readonly PropertyKey[]): string {
  return path.map(String).join(".");
}

/**
 * Validates a parsed JSON body exactly as sent: no type is coerced, and every
 * unknown key is its own issue naming the key.
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
