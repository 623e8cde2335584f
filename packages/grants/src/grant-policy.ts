import { z } from "zod";
import { GrantError } from "./grant-error.js";
import { OP_ID_PATTERN as OP_ID } from "@eleven-integrations/schema";
import { isPlainObject } from "./strict-json.js";

/** Most ops one policy names. */
export const MAX_POLICY_OPS = 256;

/** What a policy says of an op: run it, ask the member (a tap or a standing approval), or never run it. */
export const policyRuleSchema = z.enum(["allow", "ask", "block"]);
export type PolicyRule = z.infer<typeof policyRuleSchema>;

/**
 * A grant's policy: presets by class (`read`, `write`, `destructive` write) and
 * per-op rules (`ops`), the op's own entry winning. Signed with the grant.
 */
export const grantPolicySchema = z
  .strictObject({
    read: policyRuleSchema.optional(),
    write: policyRuleSchema.optional(),
    destructive: policyRuleSchema.optional(),
    ops: z
      .record(z.string().regex(OP_ID), policyRuleSchema)
      .refine((ops) => Object.keys(ops).length >= 1, "must name at least one op (leave it out for none)")
      .refine((ops) => Object.keys(ops).length <= MAX_POLICY_OPS, `names more than ${MAX_POLICY_OPS} ops`)
      .optional(),
  })
  // Absent and empty would be two spellings of "no policy".
  .refine((policy) => Object.keys(policy).length >= 1, "must hold at least one rule (leave it out for none)");
export type GrantPolicy = z.infer<typeof grantPolicySchema>;

/** Checks a grant's `policy`. Throws `GrantError` `malformed`. */
export function checkGrantPolicy(policy: unknown): GrantPolicy {
  if (!isPlainObject(policy)) throw new GrantError("malformed", "grant payload: `policy` must be an object");
  const parsed = grantPolicySchema.safeParse(policy);
  if (!parsed.success) {
    const path = parsed.error.issues[0]?.path.map(String).join(".") ?? "";
    throw new GrantError("malformed", `grant payload: \`policy${path === "" ? "" : `.${path}`}\` is not valid`);
  }
  const checked: GrantPolicy = {};
  if (parsed.data.read !== undefined) checked.read = parsed.data.read;
  if (parsed.data.write !== undefined) checked.write = parsed.data.write;
  if (parsed.data.destructive !== undefined) checked.destructive = parsed.data.destructive;
  if (parsed.data.ops !== undefined) checked.ops = { ...parsed.data.ops };
  return checked;
}

/** The RFC 8785 JSON of a checked policy (keys in code-unit order; rules and op ids need no escaping). */
export function policyJson(policy: GrantPolicy): string {
  const fields: string[] = [];
  if (policy.destructive !== undefined) fields.push(`"destructive":"${policy.destructive}"`);
  if (policy.ops !== undefined) {
    const ops = policy.ops;
    const entries = Object.keys(ops)
      .sort()
      .map((id) => `"${id}":"${ops[id] ?? ""}"`);
    fields.push(`"ops":{${entries.join(",")}}`);
  }
  if (policy.read !== undefined) fields.push(`"read":"${policy.read}"`);
  if (policy.write !== undefined) fields.push(`"write":"${policy.write}"`);
  return `{${fields.join(",")}}`;
}

/** What `decideByPolicy` answers for one op. */
export type PolicyDecision = PolicyRule;

/**
 * What a grant's policy says of one op, before any tap or approval is looked at:
 * the op's own entry wins; else a read follows `read`, a destructive write
 * `destructive` (or `write` when there is no `destructive` rule), any other
 * write `write`; with no rule, a read is `allow` and a write `ask`. `allow` on a
 * write is answered as `ask`: a write never runs without the member's signature
 * (a tap or a standing approval). Pure; the grant's own `access` and `ops` are
 * checked elsewhere.
 */
export function decideByPolicy(grant: { policy?: GrantPolicy }, op: { id: string; access: "read" | "write"; destructive?: boolean }): PolicyDecision {
  const policy = grant.policy;
  const own = policy?.ops !== undefined && Object.hasOwn(policy.ops, op.id) ? policy.ops[op.id] : undefined;
  let rule: PolicyRule | undefined = own;
  if (rule === undefined) {
    if (op.access === "read") rule = policy?.read;
    else if (op.destructive === true) rule = policy?.destructive ?? policy?.write;
    else rule = policy?.write;
  }
  if (rule === undefined) return op.access === "read" ? "allow" : "ask";
  if (op.access === "write" && rule === "allow") return "ask";
  return rule;
}
