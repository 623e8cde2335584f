import { accountFromIdentity } from "@eleven-integrations/executor";
import type { RunBody, WhoamiBody } from "@eleven-integrations/sidecar-protocol";
import type { FastifyBaseLogger } from "fastify";
import { httpErrorBody } from "../http/http-error.js";
import type { RegistrySnapshot } from "../registry/live-registry.js";
import type { RunAnswer } from "../run/answers.js";
import { StateUnavailableError } from "../state/shared-state.js";
import { UNAVAILABLE_REFUSAL } from "../state/state-refusals.js";
import { admit } from "./admit.js";
import { beginCall, type AdmittedCall, type Call, type CallContext, type CallResult, type Stage } from "./call.js";
import { checkArgs } from "./check-args.js";
import { decide } from "./decide.js";
import { open } from "./open.js";
import { AuditUnavailableError, send } from "./send.js";
import { settle, settleInternalError } from "./settle.js";

/**
 * The flows of the sidecar, each a composition of the same steps, every one of
 * which either answers the call or lets it go on:
 *
 *   open -> admit -> check args -> decide -> send -> settle
 *
 * `POST /v1/run` takes them all; `POST /v1/whoami` skips the args (it has none)
 * and the decision (it only reads); a write's preview read is `send` of another
 * op inside `decide`. What both add (the in-flight set shutdown waits for, the
 * answers to a store that is away or an audit line that cannot be written) is here once.
 */
export interface CallRunner extends CallContext {
  /** Calls still being handled; shutdown waits for them before closing the audit log. */
  inFlight: Set<Promise<unknown>>;
}

/** `POST /v1/run { grant, op, args?, confirmation?, page?, approval?, event_id? }`: one call, its audit line written before it is answered. */
export function runCall(body: RunBody, snapshot: RegistrySnapshot, runner: CallRunner, log: FastifyBaseLogger): Promise<CallResult> {
  const call = beginCall(
    { purpose: "run", op: body.op, args: body.args, page: body.page, confirmation: body.confirmation, approval: body.approval, eventId: body.event_id },
    snapshot,
    runner,
    log,
  );
  return tracked(
    runner,
    finished(call, async () => {
      const admitted = await openAndAdmit(call, body.grant);
      if (!admitted.ok) return admitted.answer;
      const run = admitted.call;
      return checkArgs(run) ?? (await decide(run)) ?? (await send(run));
    }),
  );
}

/**
 * `POST /v1/whoami { grant }`: the integration's identity op (`auth.identity`) run
 * now under the checks of a read, answering the account the provider names, or
 * the op's (or the refusal's) error envelope; audited as the identity op's run.
 */
export function whoamiCall(body: WhoamiBody, snapshot: RegistrySnapshot, runner: CallRunner, log: FastifyBaseLogger): Promise<CallResult> {
  const call = beginCall({ purpose: "whoami", op: "" }, snapshot, runner, log);
  return tracked(
    runner,
    finished(call, async () => {
      const admitted = await openAndAdmit(call, body.grant);
      return admitted.ok ? await askIdentity(admitted.call) : admitted.answer;
    }),
  );
}

/** The first two steps of every flow: the grant opens, then the call is let in. */
async function openAndAdmit(call: Call, sealedGrant: string): Promise<Stage<AdmittedCall>> {
  const opened = open(call, sealedGrant);
  return opened.ok ? await admit(opened.call) : opened;
}

/**
 * Sends the identity op and reads the account its answer names, which the bot is
 * shown (`call.shown`) while the audit line records the op's envelope; an answer
 * that names none is an error both record.
 */
async function askIdentity(call: AdmittedCall): Promise<RunAnswer> {
  const envelope = await send(call);
  if (envelope.status !== "ok") return envelope;
  const { grant } = call;
  const manifest = call.snapshot.registry.get(grant.integration);
  const named = manifest === undefined ? undefined : accountFromIdentity(manifest, envelope);
  if (named?.ok === true) {
    call.shown = { status: "ok", integration: grant.integration, account: { ...named.account } };
    return envelope;
  }
  return {
    status: "error",
    integration: grant.integration,
    op: call.facts.op,
    error: {
      code: "bad_response",
      message: named?.error.message ?? `this sidecar does not run the integration ${grant.integration}`,
      http_status: envelope.http_status,
      next_action: `Ask the member to check the ${manifest?.name ?? grant.integration} connection (integrations connect ${grant.integration}); the provider's answer did not name an account.`,
    },
  };
}

/**
 * Runs the steps and settles what they answered. A shared store that is away
 * answers `unavailable` (nothing was sent); a write whose `started` line could
 * not be written answers 500 (nothing was sent); anything else unexpected is
 * audited and answered 500.
 */
async function finished(call: Call, steps: () => Promise<RunAnswer>): Promise<CallResult> {
  let answer: RunAnswer;
  try {
    answer = await steps();
  } catch (error) {
    if (StateUnavailableError.isInstance(error)) {
      answer = { status: "error", integration: call.facts.integration, op: call.facts.op, error: UNAVAILABLE_REFUSAL };
    } else if (error instanceof AuditUnavailableError) {
      call.log.error({ err: error.cause }, "audit log write failed before a write: nothing was sent");
      return { statusCode: 500, payload: httpErrorBody("audit_unavailable", "the audit log could not be written, so the write was not sent") };
    } else {
      return await settleInternalError(call, error);
    }
  }
  return await settle(call, answer);
}

async function tracked(runner: CallRunner, work: Promise<CallResult>): Promise<CallResult> {
  runner.inFlight.add(work);
  try {
    return await work;
  } finally {
    runner.inFlight.delete(work);
  }
}
