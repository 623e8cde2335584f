import { GrantError } from "./grant-error.js";
import { OP_ID_PATTERN as OP_ID } from "@eleven-integrations/schema";
import { isPlainObject } from "./strict-json.js";

// Checked by hand, as the rest of the grant payload is: the member's web client bundles
// grants for the browser without zod (examples/browser-member checks the bundle).

/** Most ops one policy names. */
export const MAX_POLICY_OPS = 256;

/** What a policy says of an op: run it, ask the member (a tap or a standing approval), or never run it. */
export const POLICY_RULES = ["allow", "ask", "block"] as const;
export type PolicyRule = (typeof POLICY_RULES)[number];

/**
 * A grant's policy: presets by class (`read`, `write`, `destructive` write) and
 * per-op rules (`ops`), the op's own entry winning. Signed with the grant.
 */
export interface GrantPolicy {
  read?: PolicyRule;
  write?: PolicyRule;
  destructive?: PolicyRule;
  ops?: Record<string, PolicyRule>;
}

const CLASSES = ["read", "write", "destructive"] as const;

function isRule(value: unknown): value is PolicyRule {
  return typeof value === "string" && (POLICY_RULES as readonly string[]).includes(value);
}

function refuse(path: string, why: string): never {
  throw new GrantError("malformed", `grant payload: \`policy${path === "" ? "" : `.${path}`}\` ${why}`);
}

/** Checks a grant's `policy` strictly (no other keys, known rules, op ids, 1 to 256 ops). Throws `GrantError` `malformed`. */
export function checkGrantPolicy(policy: unknown): GrantPolicy {
  if (!isPlainObject(policy)) throw new GrantError("malformed", "grant payload: `policy` must be an object");
  const keys = Object.keys(policy);
  // Absent and empty would be two spellings of "no policy".
  if (keys.length === 0) refuse("", "must hold at least one rule (leave it out for none)");
  const checked: GrantPolicy = {};
  for (const key of keys) {
    const value = (policy as Record<string, unknown>)[key];
    if ((CLASSES as readonly string[]).includes(key)) {
      if (!isRule(value)) refuse(key, "is not valid");
      checked[key as (typeof CLASSES)[number]] = value;
    } else if (key === "ops") {
      if (!isPlainObject(value)) refuse("ops", "is not valid");
      const ids = Object.keys(value);
      if (ids.length < 1) refuse("ops", "must name at least one op (leave it out for none)");
      if (ids.length > MAX_POLICY_OPS) refuse("ops", `names more than ${MAX_POLICY_OPS} ops`);
      const ops: Record<string, PolicyRule> = {};
      for (const id of ids) {
        const rule = (value as Record<string, unknown>)[id];
        if (!OP_ID.test(id) || !isRule(rule)) refuse(`ops.${id}`, "is not valid");
        ops[id] = rule;
      }
      checked.ops = ops;
    } else {
      refuse(key, "is not a policy field");
    }
  }
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
