import { randomBytes } from "node:crypto";
import {
  type Approval,
  approvalCoversOp,
  blake2b256Base64Url,
  checkApprovalArgs,
  type Grant,
  GrantError,
  renderApprovalLine,
} from "@eleven-integrations/grants";
import type { CompiledOperation, Registry } from "@eleven-integrations/loader";
import type { RunAnswer } from "../run/answers.js";
import type { AdmittedCall } from "./call.js";
import { readPreview, showsPreview } from "./preview.js";

type Refusal = Extract<RunAnswer, { status: "error" }>["error"];

/** What each `openApproval` refusal tells the bot to do. */
const OPEN_NEXT_ACTION: Partial<Record<string, string>> = {
  expired: "The approval has expired: ask the member to sign a new one (integrations approve), or send the write without it for a tap.",
  not_for_this_bot: "This approval was sealed to another bot: only that bot can run under it.",
  untrusted_member: "The approval was signed by a member this sidecar does not trust.",
  ttl_too_long: "An approval lives at most 30 days: ask the member to sign a shorter one.",
  not_yet_valid: "The approval was signed in the future: check the member's clock and ask them to sign it again.",
};

/**
 * A write under a standing approval (`ea1.`), every check before anything is
 * sent: the approval opens for this bot and a trusted member (`openApproval`);
 * it is the grant's own member's; it names this integration, the manifest
 * running now (a changed manifest ends it) and this op; it gives every arg of
 * the op a constraint and none that the op does not declare; the line it signed
 * is the line `renderApprovalLine` makes of it here; the call's args stay in its
 * room; an event-bound approval names an event this sidecar delivered. Then a
 * declared preview is read (a failed read answers its envelope, nothing written,
 * no budget spent), and last the budget is spent in the shared state (revoked:
 * `approval_invalid`; spent: `approval_exhausted` with `retry_after_s`). Only
 * then does the write go on, `call.approved` set for its receipt.
 */
export async function approvedWrite(call: AdmittedCall): Promise<RunAnswer | undefined> {
  const checked = checkedApproval(call);
  if (!checked.ok) return refused(call, checked.refusal);
  const { approval } = checked;
  if (approval.event !== undefined) {
    const eventRefusal = await eventBindingRefusal(call, approval.event, approval.integration);
    if (eventRefusal !== undefined) return refused(call, eventRefusal);
  }
  let preview: string | undefined;
  if (showsPreview(call)) {
    const read = await readPreview(call);
    if (!read.ok) return read.answer;
    preview = read.preview;
  }
  const { budget } = approval;
  const amount = budget.sum === undefined ? undefined : Number(call.args[budget.sum.arg]);
  const spent = await call.context.state.spendApproval({
    ref: { gid: approval.aid, member: approval.iss },
    runs: budget.runs,
    perSeconds: budget.per_seconds,
    ...(budget.sum === undefined || amount === undefined ? {} : { sum: { amount, max: budget.sum.max } }),
  });
  if (!spent.ok) {
    if (spent.reason === "revoked") {
      return refused(call, invalid("the member revoked this approval; nothing was sent", "Send the write without the approval: the member taps it."));
    }
    return refused(call, {
      code: "approval_exhausted",
      message: "this approval's budget is spent for now; nothing was sent",
      retry_after_s: spent.retryAfterSeconds,
      next_action: `Wait ${spent.retryAfterSeconds} s for the budget's window to pass, or send the write without the approval for the member's tap.`,
    });
  }
  call.approved = { approval, nonce: randomBytes(16).toString("base64url") };
  call.facts.aid = approval.aid;
  if (preview !== undefined) call.facts.preview = preview;
  return undefined;
}

export type CheckedApproval = { ok: true; approval: Approval } | { ok: false; refusal: Refusal };

function invalid(message: string, next_action: string): Refusal {
  return { code: "approval_invalid", message, next_action };
}

/** The approval opened and matched to this call, budget aside. */
function checkedApproval(call: AdmittedCall): CheckedApproval {
  const matched = approvalForOp(call.approval ?? "", {
    openApproval: call.context.openApproval,
    grant: call.grant,
    operation: call.operation,
    registry: call.snapshot.registry,
  });
  if (!matched.ok) return matched;
  const { approval } = matched;
  const refuse = (message: string, next_action: string) => ({ ok: false as const, refusal: invalid(`${message}; nothing was sent`, next_action) });
  if (!checkApprovalArgs(approval, call.args)) {
    return refuse("these args are outside what the approval allows", "Send the write without the approval: the member taps it, or signs a wider approval.");
  }
  const sum = approval.budget.sum;
  if (sum !== undefined && Number(call.args[sum.arg]) > sum.max) {
    return refuse(`${sum.arg} is more than the approval's whole budget (${sum.max})`, "Send the write without the approval for the member's tap.");
  }
  return { ok: true, approval };
}

/** What an approval is matched against: the bot's opener, the grant, the op and the registry running. */
export interface ApprovalMatch {
  openApproval: (sealed: string) => Approval;
  grant: Grant;
  operation: CompiledOperation;
  registry: Registry;
}

/**
 * Opens an approval and checks that it covers this grant's op, whatever the
 * args: signed by the grant's member, for this integration, the manifest
 * running now and this op, every arg of the op constrained and no other, and
 * the signed line the one `renderApprovalLine` makes of it. `POST /v1/run` then
 * checks the args; `POST /v1/policy` reports the budget.
 */
export function approvalForOp(sealed: string, match: ApprovalMatch): CheckedApproval {
  let approval: Approval;
  try {
    approval = match.openApproval(sealed);
  } catch (error) {
    if (!GrantError.isInstance(error)) throw error;
    return {
      ok: false,
      refusal: invalid(
        `approval refused (${error.code}): ${error.message}; nothing was sent`,
        OPEN_NEXT_ACTION[error.code] ?? "Send the write without the approval for the member's tap.",
      ),
    };
  }
  const { grant, operation, registry } = match;
  const refuse = (message: string, next_action = "Send the write without the approval for the member's tap.") => ({
    ok: false as const,
    refusal: invalid(`${message}; nothing was sent`, next_action),
  });
  if (approval.iss !== grant.iss) return refuse("the approval was signed by another member than the grant's");
  const manifestHash = registry.manifestHash(grant.integration);
  const manifest = registry.get(grant.integration);
  if (manifestHash === undefined || manifest === undefined) return refuse(`this sidecar does not run ${grant.integration}`);
  if (approval.integration === grant.integration && approval.op === operation.id && approval.manifest_hash !== manifestHash) {
    return refuse(
      `the ${grant.integration} manifest changed since the member signed this approval`,
      "Ask the member to look at the op again and sign a new approval (integrations approve).",
    );
  }
  if (!approvalCoversOp(approval, { integration: grant.integration, manifestHash, op: operation.id })) {
    return refuse(`the approval is for ${approval.integration} ${approval.op}, not this op`);
  }
  const declared = Object.keys(operation.operation.args ?? {});
  const unconstrained = declared.filter((name) => !Object.hasOwn(approval.args, name));
  if (unconstrained.length > 0) return refuse(`the approval leaves ${unconstrained.join(", ")} without a constraint (every arg needs one, "any" included)`);
  if (Object.keys(approval.args).some((name) => !declared.includes(name))) return refuse("the approval constrains an arg this op does not declare");
  let line: string;
  try {
    line = renderApprovalLine({ manifest, op: operation.id, args: approval.args, budget: approval.budget, exp: approval.exp });
  } catch (error) {
    if (!GrantError.isInstance(error)) throw error;
    return refuse(`the approval does not describe this op: ${error.message}`);
  }
  if (blake2b256Base64Url(line) !== approval.line_digest) {
    return refuse(
      "the line the member signed is not the line this approval says (renderApprovalLine)",
      "Ask the member to sign the approval again from the line their client shows.",
    );
  }
  return { ok: true, approval };
}

/**
 * An event-bound approval runs only when the run's `event_id` names an event this
 * sidecar (or a sidecar of this bot sharing its store) handed to this bot through
 * `POST /v1/events`, of the approval's integration and event type, within the
 * last hour; anything else is `approval_invalid`, nothing sent.
 */
async function eventBindingRefusal(call: AdmittedCall, event: string, integration: string): Promise<Refusal | undefined> {
  const nextAction = "Send the write without the approval for the member's tap, or with the event_id of the event it answers.";
  const delivered = call.eventId === undefined ? undefined : await call.context.events?.delivery(call.eventId);
  if (delivered === undefined) {
    return invalid(
      `this approval runs only in answer to a ${event} event this sidecar delivered in the last hour, and it delivered none with that id; nothing was sent`,
      nextAction,
    );
  }
  if (delivered.event !== event || delivered.integration !== integration) {
    return invalid(`this approval runs only in answer to a ${event} event, and that id names a ${delivered.event} event; nothing was sent`, nextAction);
  }
  return undefined;
}

function refused(call: AdmittedCall, error: Refusal): RunAnswer {
  return { status: "error", integration: call.grant.integration, op: call.facts.op, error };
}
