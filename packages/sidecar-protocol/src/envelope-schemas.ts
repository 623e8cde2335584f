import { confirmDetailFlagSchema, confirmDetailSchema } from "@eleven-integrations/schema";
import { z } from "zod";

/** The executor's codes: how a run that was sent (or refused by the executor) failed. */
export const EXECUTOR_ERROR_CODES = [
  "unknown_integration",
  "unknown_op",
  "invalid_args",
  "unauthorized",
  "forbidden",
  "not_found",
  "rate_limited",
  "upstream_error",
  "redirect_refused",
  "timeout",
  "network_error",
  "outcome_unknown",
  "bad_response",
  "response_too_large",
  "result_too_large",
] as const;

/** The sidecar's own refusals, each before anything is sent upstream. */
export const REFUSAL_CODES = [
  "grant_expired",
  "grant_invalid",
  "access_denied",
  "confirmation_invalid",
  "rate_limited",
  "unavailable",
  "blocked_by_policy",
  "approval_invalid",
  "approval_exhausted",
] as const;

/**
 * Every `error.code` a run envelope can carry: the executor's, the sidecar's
 * refusals, `outcome_unknown` (a write sent whose answer never came) and
 * `target_changed` (a write's preview no longer matches what the member signed).
 */
export const runErrorCodeSchema = z.enum([...new Set([...EXECUTOR_ERROR_CODES, ...REFUSAL_CODES, "outcome_unknown", "target_changed"] as const)]);

/** The member's account the credential acts as: `id` always a string (a number in decimal). */
export const accountSchema = z.strictObject({ id: z.string(), name: z.string() });

/**
 * Why an arg is listed beside the confirm line, and one such arg: typed once in
 * the schema package (grants' `confirmDetails` answers exactly this).
 */
export { confirmDetailFlagSchema, confirmDetailSchema };

/** The provider's own error code and message, cleaned and at most 300 characters each. */
export const providerDetailsSchema = z.strictObject({ code: z.string().optional(), message: z.string().optional() });

export const runErrorSchema = z.strictObject({
  code: runErrorCodeSchema,
  message: z.string().describe("What went wrong, for a person; never holds a credential or a response body."),
  http_status: z.number().int().optional(),
  retry_after_s: z.number().int().min(0).optional(),
  provider: providerDetailsSchema.optional(),
  next_action: z.string().describe("What a person can do about it."),
});

const receipt = z.string().describe("`ew1.…`: the sidecar's signed receipt of a write that ran (verify with grants' `verifyReceipt`).");
const replayed = z.literal(true).describe("Present when this is the stored outcome of the same confirmed write, answered again; nothing was sent.");

/** A run that reached the provider and succeeded. */
export const okEnvelopeSchema = z.strictObject({
  status: z.literal("ok"),
  integration: z.string(),
  op: z.string(),
  http_status: z.number().int(),
  data: z.unknown().describe("The picked result, the parsed JSON body, or the body as text; null for an empty body."),
  next_page: z.string().optional().describe("Present exactly when there is more: pass it as `page`, with the same op and args."),
  receipt: receipt.optional(),
  replayed: replayed.optional(),
});

/**
 * A run that failed or was refused. `integration` is null when the grant did not
 * open. With `target_changed` the new chip rides beside `error` (`confirm`,
 * `preview`, `details`, `args_digest`, `gid`): show it and ask the member again.
 */
export const errorEnvelopeSchema = z.strictObject({
  status: z.literal("error"),
  integration: z.string().nullable(),
  op: z.string(),
  error: runErrorSchema,
  receipt: receipt.optional(),
  replayed: replayed.optional(),
  confirm: z.string().optional(),
  preview: z.string().optional(),
  details: z.array(confirmDetailSchema).optional(),
  args_digest: z.string().optional(),
  gid: z.string().optional(),
});

/**
 * A write that needs the member's tap: `confirm` (a line feed and `preview` after
 * it, when present) is the exact text to show as a chip, `details` what must be
 * shown beside it.
 */
export const confirmationRequiredSchema = z.strictObject({
  status: z.literal("confirmation_required"),
  integration: z.string(),
  op: z.string(),
  confirm: z.string(),
  preview: z.string().optional().describe('What the write will touch, read from the provider now; the member signs `confirm` + "\\n" + `preview`.'),
  details: z.array(confirmDetailSchema),
  args_digest: z.string(),
  gid: z.string(),
});

/** Every answer `POST /v1/run` gives a well-formed, authorised call (always HTTP 200). */
export const runAnswerSchema = z.discriminatedUnion("status", [okEnvelopeSchema, errorEnvelopeSchema, confirmationRequiredSchema]);

export type RunErrorCode = z.infer<typeof runErrorCodeSchema>;
export type Account = z.infer<typeof accountSchema>;
export type ConfirmDetail = z.infer<typeof confirmDetailSchema>;
export type ConfirmDetailFlag = z.infer<typeof confirmDetailFlagSchema>;
export type ProviderDetails = z.infer<typeof providerDetailsSchema>;
export type RunError = z.infer<typeof runErrorSchema>;
export type OkEnvelope = z.infer<typeof okEnvelopeSchema>;
export type ErrorEnvelope = z.infer<typeof errorEnvelopeSchema>;
export type ConfirmationRequired = z.infer<typeof confirmationRequiredSchema>;
export type RunAnswer = z.infer<typeof runAnswerSchema>;
