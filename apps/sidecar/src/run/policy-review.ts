import type { Registry } from "@eleven-integrations/loader";
import type { PolicyAnswer, PolicyBody, PolicyOperation, RefusedApproval } from "@eleven-integrations/sidecar-protocol";
import type { Approval, Grant } from "@eleven-integrations/grants";
import { policyDecision } from "../call/access.js";
import { approvalForOp } from "../call/approved-write.js";
import { checkGrant, type GrantCheckContext } from "../call/open.js";
import type { SharedState } from "../state/shared-state.js";
import { REVOKED_REFUSAL } from "../state/state-refusals.js";

export interface PolicyReviewContext extends GrantCheckContext {
  registry: Registry;
  state: SharedState;
  openApproval: (sealed: string) => Approval;
}

/**
 * `POST /v1/policy { grant, approvals? }`: per op the grant allows (its access
 * and allow-list), what a run will meet: `allow` (runs), `ask` (the member's
 * tap, or a standing approval), or `block` (`blocked_by_policy`). A write an
 * approval covers names it with its budget left; the first approval given that
 * covers an op (and is not revoked) is the one shown. An approval that covers
 * no op of the grant is listed in `refused_approvals` with why.
 */
export async function policyReview(body: PolicyBody, context: PolicyReviewContext): Promise<PolicyAnswer> {
  const checked = checkGrant(body.grant, context);
  if (!checked.ok) return { status: "error", integration: checked.grant?.integration ?? null, error: checked.refusal };
  const { grant } = checked;
  if (await context.state.isRevoked({ gid: grant.gid, member: grant.iss }, "shared")) {
    return { status: "error", integration: grant.integration, error: REVOKED_REFUSAL };
  }
  const approvals = body.approvals ?? [];
  const used = new Set<number>();
  const firstRefusal = new Map<number, string>();
  const ops: PolicyOperation[] = [];
  for (const declared of context.registry.get(grant.integration)?.ops ?? []) {
    const operation = context.registry.operation(grant.integration, declared.id);
    if (operation === undefined || !grantReaches(grant, operation.id, operation.access)) continue;
    const decision = policyDecision(grant, operation);
    const entry: PolicyOperation = { id: operation.id, access: operation.access, decision };
    if (operation.access === "write" && decision === "ask") {
      for (const [index, sealed] of approvals.entries()) {
        const matched = approvalForOp(sealed, { openApproval: context.openApproval, grant, operation, registry: context.registry });
        if (!matched.ok) {
          if (!firstRefusal.has(index)) firstRefusal.set(index, matched.refusal.message.replace(/; nothing was sent$/, ""));
          continue;
        }
        const { approval } = matched;
        const { budget } = approval;
        const left = await context.state.approvalBudget({
          ref: { gid: approval.aid, member: approval.iss },
          runs: budget.runs,
          perSeconds: budget.per_seconds,
          ...(budget.sum === undefined ? {} : { sumMax: budget.sum.max }),
        });
        used.add(index);
        if (left.revoked) {
          firstRefusal.set(index, "the member revoked this approval");
          continue;
        }
        entry.approval = {
          aid: approval.aid,
          index,
          runs_left: left.runsLeft,
          resets_at: left.resetsAt,
          ...(left.sumLeft === undefined ? {} : { sum_left: left.sumLeft }),
        };
        break;
      }
    }
    ops.push(entry);
  }
  const refused: RefusedApproval[] = [];
  for (const [index, message] of firstRefusal) {
    if (!used.has(index) || message === "the member revoked this approval") refused.push({ index, code: "approval_invalid", message });
  }
  refused.sort((a, b) => a.index - b.index);
  return { status: "ok", integration: grant.integration, ops, ...(refused.length === 0 ? {} : { refused_approvals: refused }) };
}

/** The grant's own access and allow-list, its policy aside (a blocked op is listed, as `block`). */
function grantReaches(grant: Grant, op: string, access: "read" | "write"): boolean {
  if (grant.ops !== undefined && !grant.ops.includes(op)) return false;
  return grant.access === "write" || access === "read";
}
