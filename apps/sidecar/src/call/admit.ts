import type { RunError } from "@eleven-integrations/sidecar-protocol";
import type { RunAnswer } from "../run/answers.js";
import { REVOKED_REFUSAL, rateLimitedRefusal } from "../state/state-refusals.js";
import { checkAccess, policyDecision } from "./access.js";
import type { AdmittedCall, OpenCall, Stage } from "./call.js";
import { expiredCredentialAnswer } from "./credential-expiry.js";
import { showsPreview } from "./preview.js";

/**
 * The second step: may this call come in now? Its grant is not revoked, it allows
 * the op, its credential has not expired, and the limits have room. The local
 * checks are made first and the store is asked once, revocation and limits in
 * one trip; a run is counted only for a call that will reach the provider (a
 * read, a confirmed write, a write's preview read). Answers in the design's
 * order: revoked, then the op or the credential, then the limits. A confirmed
 * write without a preview is let on after the local checks alone: `decide`
 * asks the store once, admission and consumption together.
 */
export async function admit(call: OpenCall): Promise<Stage<AdmittedCall>> {
  const local = localRefusal(call);
  if (local === undefined && consumesInOneTrip(call)) {
    call.admissionDeferred = true;
    return { ok: true, call: Object.assign(call, { operation: call.operation as AdmittedCall["operation"] }) };
  }
  const countRun = local === undefined && reachesProvider(call);
  const admission = await call.context.state.admit(call.scope, countRun);
  if (!admission.ok && admission.scope === "revoked") return refused(call, REVOKED_REFUSAL);
  if (local !== undefined) return { ok: false, answer: local };
  if (!admission.ok) return refused(call, rateLimitedRefusal(admission));
  const { operation } = call;
  if (operation === undefined) throw new Error(`the call ${call.auditId} was let in without an op`);
  return { ok: true, call: Object.assign(call, { operation }) };
}

/** What refuses the call without asking the store: an op the grant does not allow (or an integration with no identity op), or an expired credential. */
function localRefusal(call: OpenCall): RunAnswer | undefined {
  if (call.purpose === "whoami") {
    // The identity op is asked of the credential itself, whatever the grant's allow-list names.
    if (call.operation === undefined) return noIdentityOp(call).answer;
  } else {
    const access = checkAccess(call.grant, call.facts.op, call.operation);
    if (!access.ok) return refused(call, access.refusal).answer;
  }
  return expiredCredentialAnswer(call.grant, call.facts.op) ?? undefined;
}

/**
 * A confirmed write without a preview asks the store nothing before its
 * confirmation is consumed: its admission rides in the same trip
 * (`admitAndConsume`, in `decide`), so the store is asked once, not twice.
 */
function consumesInOneTrip(call: OpenCall): boolean {
  const { operation } = call;
  return (
    call.purpose === "run" &&
    operation !== undefined &&
    operation.access === "write" &&
    call.confirmation !== undefined &&
    call.approval === undefined &&
    !showsPreview({ grant: call.grant, operation })
  );
}

/** True when the call, let in, sends something upstream: it counts against the limits. */
function reachesProvider(call: OpenCall): boolean {
  const { operation } = call;
  if (operation === undefined) return false;
  if (call.confirmation !== undefined || call.approval !== undefined) return true;
  // A read the member's policy says to ask about answers its chip, and sends nothing.
  if (operation.access === "read") return call.grant.policy === undefined || policyDecision(call.grant, operation) !== "ask";
  return showsPreview({ grant: call.grant, operation });
}

function refused(call: OpenCall, error: RunError): { ok: false; answer: RunAnswer } {
  return { ok: false, answer: { status: "error", integration: call.grant.integration, op: call.facts.op, error } };
}

function noIdentityOp(call: OpenCall): { ok: false; answer: RunAnswer } {
  const { integration } = call.grant;
  return refused(call, {
    code: "unknown_op",
    message: `the ${integration} manifest declares no identity op (auth.identity), so this sidecar cannot ask which account the credential is`,
    next_action: "Rely on the account the grant names (integrations grant --account), or ask the registry's maintainers to declare auth.identity.",
  });
}
