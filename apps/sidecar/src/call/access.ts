import type { Grant } from "@eleven-integrations/grants";
import type { CompiledOperation } from "@eleven-integrations/loader";
import type { Refusal } from "../run/answers.js";

export type AccessCheck = { ok: true; operation: CompiledOperation } | { ok: false; refusal: Refusal };

/** True when `grant` may run `operation`: its allow-list, if any, names it, and a read grant never runs a write. */
export function grantAllows(grant: Grant, operation: CompiledOperation): boolean {
  if (grant.ops !== undefined && !grant.ops.includes(operation.id)) return false;
  return grant.access === "write" || operation.access === "read";
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
  return { ok: true, operation };
}
