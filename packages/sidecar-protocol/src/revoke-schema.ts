import { z } from "zod";
import { REFUSAL_CODES } from "./envelope-schemas.js";

/** `POST /v1/revoke`: the grant is refused by every sidecar of the bot until `revoked_until` (Unix seconds). */
export const revokeAnswerSchema = z.discriminatedUnion("status", [
  z.strictObject({
    status: z.literal("ok"),
    gid: z.string().optional().describe("The revoked grant's id (absent when a standing approval was revoked)."),
    aid: z.string().optional().describe("The revoked standing approval's id (absent when a grant was revoked)."),
    sid: z.string().optional().describe("The revoked event subscription's id (when a subscription was revoked)."),
    integration: z.string(),
    member: z.string(),
    revoked_until: z.number().int(),
  }),
  z.strictObject({
    status: z.literal("error"),
    error: z.strictObject({
      code: z.enum([...REFUSAL_CODES, "revocation_invalid"]),
      message: z.string(),
      retry_after_s: z.number().int().min(0).optional(),
      next_action: z.string(),
    }),
  }),
]);

export type RevokeAnswer = z.infer<typeof revokeAnswerSchema>;
