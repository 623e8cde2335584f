import { z } from "zod";
import { paletteRefusalSchema } from "./palette-schema.js";

/** What a grant's policy (and the approvals given) make of one op. */
export const policyOperationSchema = z.strictObject({
  id: z.string(),
  access: z.enum(["read", "write"]),
  decision: z
    .enum(["allow", "ask", "block"])
    .describe("`allow`: runs; `ask`: needs the member's tap or a standing approval; `block`: never runs (`blocked_by_policy`)."),
  approval: z
    .strictObject({
      aid: z.string(),
      index: z.number().int().min(0).describe("Its place in the request's `approvals`: the one to send with the run."),
      runs_left: z.number().int().min(0),
      resets_at: z.number().int().describe("Unix seconds when the budget's window ends (now when no run has started one)."),
      sum_left: z.number().optional().describe("What is left of the budget summed over an arg, when the approval has one."),
    })
    .optional()
    .describe("The standing approval that runs this write with no tap, and its budget left."),
});

/** An approval given to `POST /v1/policy` that covers nothing: why. */
export const refusedApprovalSchema = z.strictObject({
  index: z.number().int().min(0).describe("Its place in the request's `approvals`."),
  code: z.enum(["approval_invalid"]),
  message: z.string(),
});

/** `POST /v1/policy`: per op of the grant, what will happen. */
export const policyReviewSchema = z.strictObject({
  status: z.literal("ok"),
  integration: z.string(),
  ops: z.array(policyOperationSchema),
  refused_approvals: z.array(refusedApprovalSchema).optional(),
});

/** Every answer `POST /v1/policy` gives a well-formed, authorised call (always HTTP 200). */
export const policyAnswerSchema = z.discriminatedUnion("status", [policyReviewSchema, paletteRefusalSchema]);

export type PolicyOperation = z.infer<typeof policyOperationSchema>;
export type PolicyReview = z.infer<typeof policyReviewSchema>;
export type RefusedApproval = z.infer<typeof refusedApprovalSchema>;
export type PolicyAnswer = z.infer<typeof policyAnswerSchema>;
