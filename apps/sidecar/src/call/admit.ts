import type { RunError } from "@eleven-integrations/sidecar-protocol";
import type { RunAnswer } from "../run/answers.js";
import { REVOKED_REFUSAL, rateLimitedRefusal } from "../state/state-refusals.js";
import { checkAccess } from "./access.js";
import { grantOf, type Call } from "./call.js";
import { expiredCredentialAnswer } from "./credential-expiry.js";

/**
 * The second step: may this call come in now? Its grant is not revoked, it allows
 * the op, its credential has not expired, and the limits have room. The local
 * checks are made first and the store is asked once, revocation and limits in
 * one trip; a run is counted only for a call that will reach the provider (a
 * read, a confirmed write, a write's preview read). Answers in the design's
 * order: revoked, then the op or the credential, then the limits.
 */
export async function admit(call: Call): Promise<RunAnswer | undefined> {
  const grant = grantOf(call);
  const local = localRefusal(call);
  const admission = await call.context.state.admit({ member: grant.iss, gid: grant.gid, integration: grant.integration }, local === undefined && reachesProvider(call));
  if (!admission.ok && admission.scope === "revoked") return refused(call, REVOKED_REFUSAL);
  if (local !== undefined) return local;
  if (!admission.ok) return refused(call, rateLimitedRefusal(admission));
  return undefined;
}

/** What refuses the call without asking the store: an op the grant does not allow (or an integration with no identity op), or an expired credential. */
function localRefusal(call: Call): RunAnswer | undefined {
  const grant = grantOf(call);
  if (call.purpose === "whoami") {
    // The identity op is asked of the credential itself, whatever the grant's allow-list names.
    if (call.operation === undefined) return noIdentityOp(call);
  } else {
    const access = checkAccess(grant, call.facts.op, call.operation);
    if (!access.ok) return refused(call, access.refusal);
  }
  return expiredCredentialAnswer(grant, call.facts.op) ?? undefined;
}

/** True when the call, admitted, sends something upstream: it counts against the limits. */
function reachesProvider(call: Call): boolean {
  const operation = call.operation;
  if (operation === undefined) return false;
  return operation.access === "read" || call.confirmation !== undefined || operation.preview !== undefined;
}

function refused(call: Call, error: RunError): RunAnswer {
  return { status: "error", integration: grantOf(call).integration, op: call.facts.op, error };
}

function noIdentityOp(call: Call): RunAnswer {
  const { integration } = grantOf(call);
  return refused(call, {
    code: "unknown_op",
    message: `the ${integration} manifest declares no identity op (auth.identity), so this sidecar cannot ask which account the credential is`,
    next_action: "Rely on the account the grant names (integrations grant --account), or ask the registry's maintainers to declare auth.identity.",
  });
}
