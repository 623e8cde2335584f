import type { Executor } from "@eleven-integrations/executor";
import {
  argsDigest,
  confirmDetails,
  keyedArgsDigest,
  GrantError,
  renderConfirm,
  verifyConfirmationAsync,
  type Grant,
  type GrantAccount,
} from "@eleven-integrations/grants";
import type { CompiledOperation } from "@eleven-integrations/loader";
import { checkAccess } from "./access-check.js";
import { confirmationRefusal } from "./confirmation-refusal.js";
import type { Refusal, RunAnswer } from "./answers.js";
import type { RunBody } from "@eleven-integrations/sidecar-protocol";
import { expiredCredentialAnswer } from "./credential-expiry.js";
import { checkGrant, type GrantCheckContext } from "./grant-check.js";
import { confirmPreviewedWrite, readPreview } from "./preview-step.js";
import { REVOKED_REFUSAL, UNAVAILABLE_REFUSAL, rateLimitedRefusal } from "../state/state-refusals.js";
import { StateUnavailableError, type SharedState } from "../state/shared-state.js";
import { answerAgain, type ConsumedConfirmation } from "./stored-outcome.js";

export interface RunFlowContext extends GrantCheckContext {
  executor: Executor;
  /** Consumed confirmations, rate limits, revocations and the previews given: this process and its journals, or Redis. */
  state: SharedState;
}

/** Runs once every check of a write passed, just before it is sent (the durable `started` audit line); if it throws, nothing is sent. */
export type BeforeWrite = (facts: RunFacts) => Promise<void>;

/** What the audit line says about a run besides its outcome; `null` where the run never learned it. */
export interface RunFacts {
  gid: string | null;
  member: string | null;
  integration: string | null;
  op: string;
  /** The op's access (`write` for a write attempted under a read grant). */
  access: "read" | "write" | null;
  /** Keyed under the sidecar's audit key (`keyedArgsDigest`): a guess of the args cannot be checked against it. */
  args_digest: string;
  /** The account the grant's credential acts as, when the member's client named it. */
  account: GrantAccount | null;
}

export interface RunOutcome {
  answer: RunAnswer;
  facts: RunFacts;
  /** The confirmation this run consumed: its write's outcome is stored under it, for the same call sent again. */
  consumed?: ConsumedConfirmation;
}

/** What is known of a run before any check: filled in as the checks learn more, so even a failure is audited with it. */
export function initialFacts(body: RunBody, auditKey: string): RunFacts {
  return { gid: null, member: null, integration: null, op: body.op, access: null, args_digest: keyedArgsDigest(body.args ?? {}, auditKey), account: null };
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
export async function runFlow(body: RunBody, facts: RunFacts, context: RunFlowContext, beforeWrite?: BeforeWrite): Promise<RunOutcome> {
  try {
    return await checkedRun(body, facts, context, beforeWrite);
  } catch (error) {
    if (!StateUnavailableError.isInstance(error)) throw error;
    return { answer: { status: "error", integration: facts.integration, op: body.op, error: UNAVAILABLE_REFUSAL }, facts };
  }
}

async function checkedRun(body: RunBody, facts: RunFacts, context: RunFlowContext, beforeWrite: BeforeWrite | undefined): Promise<RunOutcome> {
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
  const expired = expiredCredentialAnswer(grant, body.op);
  // `page` goes to the executor as it came: a page made for another op or args is its invalid_args, nothing sent.
  // `connection` (the grant's tenant settings, signed with it) places a tenant integration's host.
  const request = {
    integration: grant.integration,
    op: body.op,
    args,
    ...(body.page === undefined ? {} : { page: body.page }),
    ...(grant.connection === undefined ? {} : { connection: grant.connection }),
  };
  // Every run, a read too, needs the shared answer on revocation: while the store is away
  // this sidecar cannot know what another sidecar recorded, so it fails closed. A read that
  // passed every local check asks it together with its rate limits, in one trip to the store.
  if (access.ok && access.operation.access === "read" && expired === null) {
    const admitted = await context.state.admitRead(grant.gid, grant.iss, grant.integration);
    if (!admitted.ok) return refuse(grant.integration, admitted.scope === "revoked" ? REVOKED_REFUSAL : rateLimitedRefusal(admitted));
    return { answer: await context.executor.run({ ...request, credential: { token: grant.cred.token, kind: grant.cred.kind } }), facts };
  }
  if (await context.state.isRevoked(grant.gid, grant.iss, "shared")) return refuse(grant.integration, REVOKED_REFUSAL);
  if (!access.ok) return refuse(grant.integration, access.refusal);
  const { operation } = access;
  if (expired !== null) return { answer: expired, facts };

  // A read goes straight to run, which refuses invalid args the same way before sending;
  // a write must have valid args before it asks for a confirmation.
  if (operation.access === "write") {
    const invalid = context.executor.validate(request);
    if (invalid !== null) return { answer: invalid, facts };
    const line = confirmLine(operation, args);
    if (body.confirmation === undefined) {
      let preview: string | undefined;
      if (operation.preview !== undefined) {
        // The preview read is sent upstream: it counts against the limits like any read.
        const limited = await context.state.takeRun(grant.iss, grant.gid, grant.integration, "shared");
        if (!limited.ok) return refuse(grant.integration, rateLimitedRefusal(limited));
        const read = await readPreview(context.executor, grant, operation, args);
        if (!read.ok) return { answer: read.answer, facts };
        preview = read.preview;
        await context.state.rememberPreview(grant.iss, grant.gid, body.op, argsDigest(args), preview);
      }
      return {
        answer: {
          status: "confirmation_required",
          integration: grant.integration,
          op: body.op,
          confirm: line,
          ...(preview === undefined ? {} : { preview }),
          details: confirmDetails(operation.confirm ?? operation.label, args),
          // The bot's answer carries the plain digest (the bot has the args); the audit line the keyed one.
          args_digest: argsDigest(args),
          gid: grant.gid,
        },
        facts,
      };
    }
    // Limits first: a write refused for its rate leaves its confirmation unused, to try again later.
    const limited = await context.state.takeRun(grant.iss, grant.gid, grant.integration, "shared");
    if (!limited.ok) return refuse(grant.integration, rateLimitedRefusal(limited));
    const digest = argsDigest(args);
    let consumed: ConsumedConfirmation | undefined;
    if (operation.preview !== undefined) {
      const previewed = await confirmPreviewedWrite(body.confirmation, { grant, operation, args, confirm: line, context });
      if (!previewed.ok) return { answer: previewed.answer, facts };
      consumed = { member: grant.iss, key: previewed.key, exp: previewed.exp, argsDigest: digest };
    } else {
      let taken: { key: string; exp: number } | undefined;
      try {
        await verifyConfirmationAsync(body.confirmation, {
          grant,
          op: body.op,
          args,
          line,
          replay: {
            consume: (key, exp) => {
              taken = { key, exp };
              return context.state.consumeConfirmation(grant.iss, key, exp);
            },
          },
        });
      } catch (error) {
        if (!GrantError.isInstance(error)) throw error;
        // Verified for these args and consumed before: the same call again gets its write's stored outcome.
        if (error.code === "replayed" && taken !== undefined) {
          return { answer: await answerAgain(context.state, { member: grant.iss, key: taken.key, argsDigest: digest }, grant.integration, body.op), facts };
        }
        return refuse(grant.integration, confirmationRefusal(error));
      }
      if (taken === undefined) throw new Error("the confirmation verified without being consumed");
      consumed = { member: grant.iss, key: taken.key, exp: taken.exp, argsDigest: digest };
    }
    await beforeWrite?.(facts);
    const answer = await context.executor.run({ ...request, credential: { token: grant.cred.token, kind: grant.cred.kind } });
    return { answer, facts, consumed };
  }
  // Not reached: a read that passed every check was admitted and run above.
  throw new Error(`the op ${body.op} is neither a read nor a write`);
}

function noteGrant(facts: RunFacts, grant: Grant): void {
  facts.gid = grant.gid;
  facts.member = grant.iss;
  facts.integration = grant.integration;
  facts.account = grant.account ?? null;
}
