import { canonicalJson } from "@eleven-integrations/schema";
import { z } from "zod";
import { isBase64UrlOf } from "./base64url.js";
import { GrantError } from "./grant-error.js";
import { INTEGRATION_ID, OP_ID } from "./grant-payload.js";
import { MAX_APPROVAL_TTL_SECONDS } from "./limits.js";

/** Most args one approval constrains. */
export const MAX_APPROVAL_ARGS = 32;
/** Most values one `{ in: [...] }` constraint lists. */
export const MAX_CONSTRAINT_VALUES = 20;
/** Longest string an `eq` or `in` constraint holds, in UTF-16 code units. */
export const MAX_CONSTRAINT_TEXT = 1024;
/** Most runs one budget window allows. */
export const MAX_BUDGET_RUNS = 10_000;

const ARG_NAME = /^[a-z][a-z0-9_]{0,63}$/;
// An event type a manifest declares: the same shape as an op id.
const EVENT_ID = OP_ID;
const HEX_HASH = /^[0-9a-f]{64}$/;
const LONE_SURROGATE = /\p{Cs}/u;

const base64UrlOf = (bytes: number, what: string) =>
  z.string().refine((value) => isBase64UrlOf(value, bytes), `${what} must be ${bytes} bytes of unpadded base64url`);
const unixSeconds = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);
// A lone surrogate has no UTF-8 form, so no canonical spelling.
const constraintText = z
  .string()
  .max(MAX_CONSTRAINT_TEXT)
  .refine((value) => !LONE_SURROGATE.test(value), "holds a lone surrogate");
const finiteNumber = z.number().refine((value) => Number.isFinite(value), "must be a finite number");

/**
 * The room one arg has under an approval: exactly one value (`eq`), one of a few
 * (`in`), a numeric bound (`min`, `max`, or both), or `"any"`, said explicitly.
 */
export const argConstraintSchema = z.union([
  z.literal("any"),
  z.strictObject({ eq: constraintText }),
  z.strictObject({
    in: z
      .array(constraintText)
      .min(1)
      .max(MAX_CONSTRAINT_VALUES)
      .refine((values) => new Set(values).size === values.length, "lists a value twice"),
  }),
  z.strictObject({ max: finiteNumber }),
  z.strictObject({ min: finiteNumber }),
  z.strictObject({ min: finiteNumber, max: finiteNumber }).refine((bounds) => bounds.min <= bounds.max, "`min` is over `max`"),
]);
export type ArgConstraint = z.infer<typeof argConstraintSchema>;

export const approvalArgsSchema = z
  .record(z.string().regex(ARG_NAME), argConstraintSchema)
  .refine((args) => Object.keys(args).length <= MAX_APPROVAL_ARGS, `constrains more than ${MAX_APPROVAL_ARGS} args`);
export type ApprovalArgs = z.infer<typeof approvalArgsSchema>;

/** How often the approved writes may run: `runs` per `per_seconds`, and optionally at most `max` summed over a numeric arg. */
export const approvalBudgetSchema = z.strictObject({
  runs: z.number().int().min(1).max(MAX_BUDGET_RUNS),
  per_seconds: z.number().int().min(1).max(MAX_APPROVAL_TTL_SECONDS),
  sum: z.strictObject({ arg: z.string().regex(ARG_NAME), max: finiteNumber.refine((max) => max > 0, "must be over 0") }).optional(),
});
export type ApprovalBudget = z.infer<typeof approvalBudgetSchema>;

/** The signed payload of a standing approval (`ea1.`), its fields as on the wire. */
export const approvalPayloadSchema = z
  .strictObject({
    v: z.literal(1),
    typ: z.literal("approval"),
    /** Random id of this approval (16 bytes, unpadded base64url); receipts and audit lines name it. */
    aid: base64UrlOf(16, "aid"),
    /** The member's Ed25519 public key that signed it. */
    iss: base64UrlOf(32, "iss"),
    /** The bot's X25519 public key it was sealed to. */
    aud: base64UrlOf(32, "aud"),
    integration: z.string().regex(INTEGRATION_ID),
    /** Lowercase hex hash of the manifest the member saw. */
    manifest_hash: z.string().regex(HEX_HASH),
    /** The one write op it approves. */
    op: z.string().regex(OP_ID),
    args: approvalArgsSchema,
    budget: approvalBudgetSchema,
    /** BLAKE2b-256 (unpadded base64url) of the line the member saw (`renderApprovalLine`). */
    line_digest: base64UrlOf(32, "line_digest"),
    /** When present, only writes made in answer to a delivered event of this type. */
    event: z.string().regex(EVENT_ID).optional(),
    iat: unixSeconds,
    exp: unixSeconds,
  })
  .refine((approval) => approval.exp > approval.iat, "`exp` must be after `iat`")
  .refine(
    (approval) => approval.budget.sum === undefined || Object.hasOwn(approval.args, approval.budget.sum.arg),
    "`budget.sum.arg` must be one of the constrained args",
  );
export type Approval = z.infer<typeof approvalPayloadSchema>;

/** Where in the value the first problem is, never the value itself (it may be a member's text). */
function issuePath(error: z.ZodError): string {
  const issue = error.issues[0];
  const path = issue?.path.map(String).join(".") ?? "";
  return path === "" ? (issue?.message ?? "is not valid") : `\`${path}\` is not valid`;
}

/** Checks an approval payload, the same way when issuing and when opening. Throws `GrantError` `malformed`. */
export function checkApprovalPayload(object: unknown): Approval {
  const parsed = approvalPayloadSchema.safeParse(object);
  if (!parsed.success) throw new GrantError("malformed", `approval payload: ${issuePath(parsed.error)}`);
  return parsed.data;
}

/** Checks one set of constraints (as `renderApprovalLine` is given them). Throws `GrantError` `malformed`. */
export function checkApprovalArgsShape(args: unknown): ApprovalArgs {
  const parsed = approvalArgsSchema.safeParse(args);
  if (!parsed.success) throw new GrantError("malformed", `approval args: ${issuePath(parsed.error)}`);
  return parsed.data;
}

/** Checks a budget. Throws `GrantError` `malformed`. */
export function checkApprovalBudget(budget: unknown): ApprovalBudget {
  const parsed = approvalBudgetSchema.safeParse(budget);
  if (!parsed.success) throw new GrantError("malformed", `approval budget: ${issuePath(parsed.error)}`);
  return parsed.data;
}

/** The RFC 8785 canonical JSON of a checked approval: the bytes the member signs. */
export function approvalJson(approval: Approval): string {
  return canonicalJson(approval);
}
