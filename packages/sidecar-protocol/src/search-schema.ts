import { z } from "zod";

/** Whether the bot can run an op now, or what is missing. */
export const readinessSchema = z.enum(["ready", "needs_grant", "grant_expired", "needs_write_grant", "manifest_changed"]);

/** One ranked op with its readiness and what a member can do about it. */
export const readinessHitSchema = z.strictObject({
  integration: z.string(),
  name: z.string(),
  category: z.string(),
  op: z.string(),
  label: z.string(),
  access: z.enum(["read", "write"]),
  destructive: z.boolean(),
  score: z.number(),
  readiness: readinessSchema,
  next_action: z.string(),
  grant: z.number().int().min(0).optional().describe("Index in `grants` of the grant that runs it (ready) or that fell short."),
});

/** What the sidecar made of each grant it was given, in the order given. */
export const grantStatusSchema = z.discriminatedUnion("status", [
  z.strictObject({
    index: z.number().int().min(0),
    status: z.literal("ok"),
    integration: z.string(),
    access: z.enum(["read", "write"]),
    ops: z.array(z.string()).optional(),
    exp: z.number().int(),
  }),
  z.strictObject({
    index: z.number().int().min(0),
    status: z.literal("error"),
    integration: z.string().nullable(),
    code: z.enum(["grant_expired", "manifest_changed", "grant_invalid"]),
    message: z.string(),
  }),
]);

/** `POST /v1/search`: the ops of this sidecar's registry ranked for `q`, each with its readiness under the grants given. */
export const searchAnswerSchema = z.strictObject({
  status: z.literal("ok"),
  query: z.strictObject({ q: z.string(), category: z.string().nullable(), access: z.enum(["read", "write"]).nullable() }),
  results: z.array(readinessHitSchema),
  grants: z.array(grantStatusSchema),
});

export type Readiness = z.infer<typeof readinessSchema>;
export type ReadinessHit = z.infer<typeof readinessHitSchema>;
export type GrantStatus = z.infer<typeof grantStatusSchema>;
export type SearchAnswer = z.infer<typeof searchAnswerSchema>;
