import { decideByPolicy, type Grant, type PolicyDecision } from "@eleven-integrations/grants";
import type { CompiledOperation } from "@eleven-integrations/loader";
import type { Refusal } from "../run/answers.js";

export type AccessCheck = { ok: true; operation: CompiledOperation } | { ok: false; refusal: Refusal };

/**
 * True when `grant` may run `operation`: its allow-list, if any, names it, a read
 * grant never runs a write, and its policy does not block it.
 */
export function grantAllows(grant: Grant, operation: CompiledOperation): boolean {
  if (grant.ops !== undefined && !grant.ops.includes(operation.id)) return false;
  if (grant.access !== "write" && operation.access !== "read") return false;
  return !blockedByPolicy(grant, operation);
}

/** True when the grant's signed policy blocks the op (`decideByPolicy`): it never runs, whatever tap or approval comes with it. */
export function blockedByPolicy(grant: Grant, operation: CompiledOperation): boolean {
  return grant.policy !== undefined && policyDecision(grant, operation) === "block";
}

/** What the grant's policy says of the op: `allow`, `ask` (a tap or a standing approval) or `block`; absent, reads allow and writes ask. */
export function policyDecision(grant: Grant, operation: CompiledOperation): PolicyDecision {
  return decideByPolicy(grant, { id: operation.id, access: operation.access, destructive: operation.operation.destructive === true });
}

function denied(message: string, next_action: string): AccessCheck {
  return { ok: false, refusal: { code: "access_denied", message, next_action } };
}

/**
 * Whether `op` may run under `grant`, else its `access_denied` refusal: the op
 * must be one of the grant's integration (`operation` is what the registry found
 * there), on the grant's allow-list, and allowed by its access.
 */
export function checkAccess(grant: Grant, op: string, operation: CompiledOperation | undefined): AccessCheck {
  if (operation === undefined) {
    return denied(
      `${op} is not an operation of ${grant.integration}, the only integration this grant runs`,
      `Pick one of the ${grant.integration} operations this grant allows (POST /v1/ops lists them), or ask the member for a grant to the integration you need.`,
    );
  }
  if (grant.ops !== undefined && !grant.ops.includes(op)) {
    return denied(`${op} is not on this grant's list of operations`, `Ask the member for a grant that includes ${op}.`);
  }
  if (grant.access === "read" && operation.access === "write") {
    return denied(`${op} writes, and this grant only reads`, `Ask the member for a write grant to run ${op}.`);
  }
  if (blockedByPolicy(grant, operation)) {
    return {
      ok: false,
      refusal: {
        code: "blocked_by_policy",
        message: `the member's policy in this grant blocks ${op}; nothing was sent`,
        next_action: `Tell the member ${op} is blocked by their policy; only a new grant with another policy can run it.`,
      },
    };
  }
  return { ok: true, operation };
}
