import { accountFromIdentity } from "@eleven-integrations/executor";
import type { WhoamiAnswer, WhoamiBody } from "@eleven-integrations/sidecar-protocol";
import type { RunAnswer } from "./answers.js";
import { expiredCredentialAnswer } from "./credential-expiry.js";
import { checkGrant } from "./grant-check.js";
import type { RunFacts, RunFlowContext } from "./run-flow.js";
import { REVOKED_REFUSAL, UNAVAILABLE_REFUSAL, rateLimitedRefusal } from "../state/state-refusals.js";
import { StateUnavailableError } from "../state/shared-state.js";

export interface WhoamiOutcome {
  /** What the caller gets. */
  answer: WhoamiAnswer;
  /** What the audit line records: the identity op's envelope, or the refusal. */
  audited: RunAnswer;
  facts: RunFacts;
}

/**
 * `POST /v1/whoami { grant }`: runs the integration's identity op (`auth.identity`)
 * now, with the grant's credential and connection, under the same checks as a read
 * (the grant opens and names the loaded manifest, is not revoked, its credential
 * has not expired, the rate limits allow it), and answers the account the provider
 * names, or the op's (or the refusal's) error envelope.
 */
export async function whoamiFlow(body: WhoamiBody, facts: RunFacts, context: RunFlowContext): Promise<WhoamiOutcome> {
  try {
    return await checkedWhoami(body, facts, context);
  } catch (error) {
    if (!StateUnavailableError.isInstance(error)) throw error;
    const answer = { status: "error" as const, integration: facts.integration, op: facts.op, error: UNAVAILABLE_REFUSAL };
    return { answer, audited: answer, facts };
  }
}

async function checkedWhoami(body: WhoamiBody, facts: RunFacts, context: RunFlowContext): Promise<WhoamiOutcome> {
  const refused = (answer: RunAnswer & { status: "error" }): WhoamiOutcome => ({ answer, audited: answer, facts });
  const checked = checkGrant(body.grant, context);
  if (checked.grant !== undefined) {
    facts.gid = checked.grant.gid;
    facts.member = checked.grant.iss;
    facts.integration = checked.grant.integration;
    facts.account = checked.grant.account ?? null;
  }
  const manifest = checked.grant === undefined ? undefined : context.registry.get(checked.grant.integration);
  const identity = manifest?.auth.identity;
  if (identity !== undefined) {
    facts.op = identity;
    facts.access = "read";
  }
  if (!checked.ok) return refused({ status: "error", integration: checked.grant?.integration ?? null, op: facts.op, error: checked.refusal });
  const { grant } = checked;
  if (await context.state.isRevoked(grant.gid, grant.iss, "shared"))
    return refused({ status: "error", integration: grant.integration, op: facts.op, error: REVOKED_REFUSAL });
  if (manifest === undefined || identity === undefined) {
    return refused({
      status: "error",
      integration: grant.integration,
      op: facts.op,
      error: {
        code: "unknown_op",
        message: `the ${grant.integration} manifest declares no identity op (auth.identity), so this sidecar cannot ask which account the credential is`,
        next_action: "Rely on the account the grant names (integrations grant --account), or ask the registry's maintainers to declare auth.identity.",
      },
    });
  }
  const expired = expiredCredentialAnswer(grant, identity);
  if (expired !== null && expired.status === "error") return refused(expired);
  const limited = await context.state.takeRun(grant.iss, grant.gid, grant.integration, "shared");
  if (!limited.ok) return refused({ status: "error", integration: grant.integration, op: identity, error: rateLimitedRefusal(limited) });

  const envelope = await context.executor.run({
    integration: grant.integration,
    op: identity,
    args: {},
    credential: { token: grant.cred.token, kind: grant.cred.kind },
    ...(grant.connection === undefined ? {} : { connection: grant.connection }),
  });
  if (envelope.status !== "ok") return { answer: envelope, audited: envelope, facts };
  const named = accountFromIdentity(manifest, envelope);
  if (named.ok) return { answer: { status: "ok", integration: grant.integration, account: { ...named.account } }, audited: envelope, facts };
  const failed = {
    status: "error" as const,
    integration: grant.integration,
    op: identity,
    error: {
      code: "bad_response" as const,
      message: named.error.message,
      http_status: envelope.http_status,
      next_action: `Ask the member to check the ${manifest.name} connection (integrations connect ${grant.integration}); the provider's answer did not name an account.`,
    },
  };
  return { answer: failed, audited: failed, facts };
}
