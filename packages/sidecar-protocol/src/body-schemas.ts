import { z } from "zod";
import { OP_ID_PATTERN, runArgsSchema } from "@eleven-integrations/schema";

/** An op id as manifests write it: `<group>.<action>`, such as `repos.list`. */
export { OP_ID_PATTERN };
export const MAX_OP_ID_LENGTH = 100;
/** Longest `event_id` a run names. */
export const MAX_EVENT_ID_LENGTH = 200;
/** At most this many grants in one search: a bot holds a handful per member. */
export const MAX_SEARCH_GRANTS = 32;
/** At most this many approvals in one policy review. */
export const MAX_POLICY_APPROVALS = 64;
/** Longest search text, in code points (JSON Schema's `maxLength` counts code points too). */
export const MAX_SEARCH_TEXT = 200;

const sealedGrant = z.string().min(1).describe("A grant (`eg1.…`) the member sealed to this bot; opened only by the sidecar.");

/** `POST /v1/ops`: the grant whose palette is asked for. */
export const opsBodySchema = z.strictObject({ grant: sealedGrant });

/** `POST /v1/run`: the grant, the op of the grant's integration, its args, and for a write the member's confirmation. */
export const runBodySchema = z.strictObject({
  grant: sealedGrant,
  op: z.string().max(MAX_OP_ID_LENGTH).regex(OP_ID_PATTERN, "must be an op id such as repos.list"),
  args: runArgsSchema
    .optional()
    .describe("The op's args: each a string, a list arg's array of strings, or a file arg's `{ name, content_type, base64 }` / `{ sha256 }`."),
  confirmation: z.string().min(1).optional().describe("For a write: the member's signed tap on the chip (`ec1.…`)."),
  page: z.string().min(1).optional().describe("A `next_page` from an earlier answer for this op and these args: runs the next page."),
  approval: z
    .string()
    .min(1)
    .optional()
    .describe(
      "For a write: a standing approval the member signed (`ea1.…`); the write runs with no tap when it covers this op and these args and its budget has room.",
    ),
  event_id: z
    .string()
    .min(1)
    .max(MAX_EVENT_ID_LENGTH)
    .optional()
    .describe("With an approval limited to one event type: the `event_id` of the event this sidecar delivered that the write answers."),
});

/** `POST /v1/policy`: the grant, and the standing approvals the bot holds for it. */
export const policyBodySchema = z.strictObject({
  grant: sealedGrant,
  approvals: z.array(z.string().min(1)).max(MAX_POLICY_APPROVALS).optional().describe("Standing approvals (`ea1.…`) to review beside the grant."),
});

/** `POST /v1/search`: the words, the grants the bot holds, and optional filters. */
export const searchBodySchema = z.strictObject({
  q: z
    .string()
    .refine((value) => [...value].length <= MAX_SEARCH_TEXT, `must be at most ${MAX_SEARCH_TEXT} characters`)
    .meta({ maxLength: MAX_SEARCH_TEXT }),
  grants: z.array(z.string().min(1)).max(MAX_SEARCH_GRANTS),
  category: z.string().max(100).optional(),
  access: z.enum(["read", "write"]).optional(),
  limit: z.number().int().min(1).max(100).optional(),
});

/** `POST /v1/revoke`: a revocation the grant's member signed (`er1.…`, `integrations revoke`). */
export const revokeBodySchema = z.strictObject({
  revocation: z.string().min(1),
});

/** `POST /v1/whoami`: the grant whose account is asked for; the sidecar runs the integration's identity op now. */
export const whoamiBodySchema = z.strictObject({ grant: sealedGrant });

export type OpsBody = z.infer<typeof opsBodySchema>;
export type RunBody = z.infer<typeof runBodySchema>;
export type SearchBody = z.infer<typeof searchBodySchema>;
export type RevokeBody = z.infer<typeof revokeBodySchema>;
export type WhoamiBody = z.infer<typeof whoamiBodySchema>;
export type PolicyBody = z.infer<typeof policyBodySchema>;

/** The body's `op` when it is a well-formed op id (safe to audit), else null. */
export function wellFormedOp(body: unknown): string | null {
  if (typeof body !== "object" || body === null || !("op" in body)) return null;
  const { op } = body;
  return typeof op === "string" && op.length <= MAX_OP_ID_LENGTH && OP_ID_PATTERN.test(op) ? op : null;
}
