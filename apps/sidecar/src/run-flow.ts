import type { Executor } from "@eleven-integrations/executor";
import { argsDigest, confirmDetails, GrantError, renderConfirm, verifyConfirmation, type Grant, type GrantErrorCode, type ReplayStore } from "@eleven-integrations/grants";
import type { CompiledOperation } from "@eleven-integrations/loader";
import { checkAccess } from "./access-check.js";
import type { Refusal, RunAnswer } from "./answers.js";
import type { RunBody } from "./body-schemas.js";
import { checkGrant, type GrantCheckContext } from "./grant-check.js";

export interface RunFlowContext extends GrantCheckContext {
  executor: Executor;
  /** Consumed confirmations, kept until they expire. */
  replay: ReplayStore;
}

/** What the audit line says about a run besides its outcome; `null` where the run never learned it. */
export interface RunFacts {
  gid: string | null;
  member: string | null;
  integration: string | null;
  op: string;
  /** The op's access (`write` for a write attempted under a read grant). */
  access: "read" | "write" | null;
  args_digest: string;
}

export interface RunOutcome {
  answer: RunAnswer;
  facts: RunFacts;
}

const CONFIRM_NEXT_ACTION: Partial<Record<GrantErrorCode, string>> = {
  replayed: "Ask the member to confirm again: each confirmation runs the operation once.",
  expired: "Ask the member to confirm again: the confirmation expired.",
  mismatch: "Ask the member to confirm exactly this operation and these args (the line confirmation_required gave).",
};

/** What is known of a run before any check: filled in as the checks learn more, so even a failure is audited with it. */
export function initialFacts(body: RunBody): RunFacts {
  return { gid: null, member: null, integration: null, op: body.op, access: null, args_digest: argsDigest(body.args ?? {}) };
}

function confirmLine(operation: CompiledOperation, args: Record<string, string>): string {
  return renderConfirm(operation.confirm ?? operation.label, args);
}

/**
 * `POST /v1/run`, every check in the design's order, each refusal final: the
 * grant opens and names the loaded manifest; the op is the grant's integration's,
 * on its allow-list and allowed by its access; the args are valid; a write
 * carries a confirmation that verifies and is consumed here. Only then does the
 * executor send anything. `facts` (from `initialFacts`) is filled in on the way.
 */
export async function runFlow(body: RunBody, facts: RunFacts, context: RunFlowContext): Promise<RunOutcome> {
  const args = body.args ?? {};
  const refuse = (integration: string | null, refusal: Refusal): RunOutcome => ({
    answer: { status: "error", integration, op: body.op, error: refusal },
    facts,
  });

  const checked = checkGrant(body.grant, context);
  if (checked.grant !== undefined) noteGrant(facts, checked.grant);
  if (!checked.ok) return refuse(checked.grant?.integration ?? null, checked.refusal);
  const { grant } = checked;

  const found = context.registry.operation(grant.integration, body.op);
  if (found !== undefined) facts.access = found.access;
  const access = checkAccess(grant, body.op, found);
  if (!access.ok) return refuse(grant.integration, access.refusal);
  const { operation } = access;

  const request = { integration: grant.integration, op: body.op, args };
  // A read goes straight to run, which refuses invalid args the same way before sending;
  // a write must have valid args before it asks for a confirmation.
  if (operation.access === "write") {
    const invalid = context.executor.validate(request);
    if (invalid !== null) return { answer: invalid, facts };
    const line = confirmLine(operation, args);
    if (body.confirmation === undefined) {
      return {
        answer: {
          status: "confirmation_required",
          integration: grant.integration,
          op: body.op,
          confirm: line,
          details: confirmDetails(operation.confirm ?? operation.label, args),
          args_digest: facts.args_digest,
          gid: grant.gid,
        },
        facts,
      };
    }
    try {
      verifyConfirmation(body.confirmation, { grant, op: body.op, args, line, replay: context.replay });
    } catch (error) {
      if (!GrantError.isInstance(error)) throw error;
      return refuse(grant.integration, {
        code: "confirmation_invalid",
        message: `confirmation refused (${error.code}): ${error.message}`,
        next_action: CONFIRM_NEXT_ACTION[error.code] ?? "Ask the member to confirm the operation again.",
      });
    }
  }

  return { answer: await context.executor.run({ ...request, credential: { token: grant.cred.token } }), facts };
}

function noteGrant(facts: RunFacts, grant: Grant): void {
  facts.gid = grant.gid;
  facts.member = grant.iss;
  facts.integration = grant.integration;
}
