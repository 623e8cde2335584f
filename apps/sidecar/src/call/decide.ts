import {
  argsDigest,
  type CheckedConfirmation,
  checkConfirmation,
  confirmDetails,
  GrantError,
  recallConfirmation,
  renderConfirm,
} from "@eleven-integrations/grants";
import type { CompiledOperation } from "@eleven-integrations/loader";
import type { RunAnswer } from "../run/answers.js";
import type { WriteSlot } from "../state/shared-state.js";
import type { AdmittedCall } from "./call.js";
import { confirmationRefusal } from "./confirmation-refusal.js";
import { readPreview, showsPreview, signedLine } from "./preview.js";
import { answerAgain } from "./stored-outcome.js";
import { REVOKED_REFUSAL, rateLimitedRefusal } from "../state/state-refusals.js";
import { policyDecision } from "./access.js";
import { approvedWrite } from "./approved-write.js";

/**
 * The fourth step: does the member's signature cover this call? A read runs
 * (unless the grant's policy says to ask the member about it: then it is treated
 * as a write is, chip and tap). A write runs only under the member's tap on its
 * chip, or under a standing approval (`approvedWrite`): without either the
 * answer is the chip (`confirmation_required`, with its preview read now); with
 * one, it is checked (`checkConfirmation`), for a write with a preview against a
 * preview a sidecar of this bot gave and a fresh read of it, and only then
 * consumed in the shared state, which sets `call.consumed`.
 */
export async function decide(call: AdmittedCall): Promise<RunAnswer | undefined> {
  const { operation } = call;
  const asks = operation.access === "write" || (call.grant.policy !== undefined && policyDecision(call.grant, operation) === "ask");
  if (call.approval !== undefined) return call.confirmation === undefined && asks ? await approvedWrite(call) : approvalMisused(call, asks);
  if (!asks) return undefined;
  const line = renderConfirm(operation.confirm ?? operation.label, call.args);
  if (call.confirmation === undefined) return await chip(call, operation, line);
  if (!showsPreview(call)) return await confirmedWrite(call, call.confirmation, line);
  return await confirmedPreviewedWrite(call, call.confirmation, line);
}

/** An approval sent with a tap, or for an op that needs none: refused, so what the bot meant is never guessed. */
function approvalMisused(call: AdmittedCall, asks: boolean): RunAnswer {
  return refused(call, {
    code: "approval_invalid",
    message: asks
      ? "a run carries either the member's confirmation or a standing approval, not both; nothing was sent"
      : `${call.facts.op} runs without the member's signature: it takes no standing approval; nothing was sent`,
    next_action: asks ? "Send the run again with only one of confirmation and approval." : "Send the run again without approval.",
  });
}

function writeSlot(call: AdmittedCall): WriteSlot {
  const { grant } = call;
  return { member: grant.iss, gid: grant.gid, op: call.operation.id, argsDigest: argsDigest(call.args) };
}

function refused(call: AdmittedCall, error: Extract<RunAnswer, { status: "error" }>["error"]): RunAnswer {
  return { status: "error", integration: call.grant.integration, op: call.facts.op, error };
}

/** The chip a write answers without a confirmation: its confirm line, its details and, when it declares one, its preview, read now. */
async function chip(call: AdmittedCall, operation: CompiledOperation, line: string): Promise<RunAnswer> {
  const { grant } = call;
  let preview: string | undefined;
  if (showsPreview(call)) {
    const read = await readPreview(call);
    if (!read.ok) return read.answer;
    preview = read.preview;
    await call.context.state.rememberPreview(writeSlot(call), preview);
  }
  return {
    status: "confirmation_required",
    integration: grant.integration,
    op: operation.id,
    confirm: line,
    ...(preview === undefined ? {} : { preview }),
    details: confirmDetails(operation.confirm ?? operation.label, call.args),
    // The bot's answer carries the plain digest (the bot has the args); the audit line the keyed one.
    args_digest: argsDigest(call.args),
    gid: grant.gid,
  };
}

/**
 * Consumes the checked confirmation: with the call's admission in the same trip
 * when `admit` left it for this step (a refusal then answers as `admit` would:
 * revoked, or over a limit), else alone.
 */
async function consumed(call: AdmittedCall, checked: CheckedConfirmation): Promise<boolean | RunAnswer> {
  if (call.admissionDeferred !== true) return await call.context.state.consumeConfirmation(checked);
  const result = await call.context.state.admitAndConsume(call.scope, checked);
  if (result.ok) return result.consumed;
  return refused(call, result.scope === "revoked" ? REVOKED_REFUSAL : rateLimitedRefusal(result));
}

/** A confirmed write without a preview: checked, then consumed; a confirmation consumed before answers its write's stored outcome. */
async function confirmedWrite(call: AdmittedCall, confirmation: string, line: string): Promise<RunAnswer | undefined> {
  const { grant } = call;
  let checked: CheckedConfirmation;
  try {
    checked = checkConfirmation(confirmation, { grant, op: call.facts.op, args: call.args, line });
  } catch (error) {
    if (!GrantError.isInstance(error)) throw error;
    return (await outcomeAfterExpiry(call, confirmation, error)) ?? refused(call, confirmationRefusal(error));
  }
  // Verified for these args and consumed before: the same call again gets its write's stored outcome.
  const consumption = await consumed(call, checked);
  if (typeof consumption !== "boolean") return consumption;
  if (!consumption) return await answerAgain(call.context.state, checked, grant.integration, call.facts.op);
  call.consumed = checked;
  return undefined;
}

/**
 * A confirmed write that declares a preview, every check before anything is
 * written, the confirmation consumed last: it must verify (member, grant, op,
 * args) over the confirm line and a preview a sidecar of this bot gave for these
 * args, as the shared state keeps them (one none gave is `confirmation_invalid`,
 * nothing read); the preview is read again and rendered afresh; a different line
 * answers `target_changed` with the new chip and leaves the confirmation unused
 * (if the target changes back, the same tap still runs once); a failed read
 * answers its own envelope. Only when the fresh line is the signed one is the
 * confirmation consumed. A confirmation consumed before (the same call sent
 * again) answers its write's stored outcome (`answerAgain`), without reading the preview.
 */
async function confirmedPreviewedWrite(call: AdmittedCall, confirmation: string, confirm: string): Promise<RunAnswer | undefined> {
  const { grant } = call;
  const { state } = call.context;
  const slot = writeSlot(call);
  let signed: { preview: string; checked: CheckedConfirmation } | undefined;
  let refusal: GrantError | undefined;
  for (const preview of await state.givenPreviews(slot)) {
    try {
      signed = { preview, checked: checkConfirmation(confirmation, { grant, op: slot.op, args: call.args, line: signedLine(confirm, preview) }) };
      break;
    } catch (error) {
      if (!GrantError.isInstance(error)) throw error;
      // Keep the most telling reason: one that is not "another line" (signature, expiry) says more than a mismatch of previews.
      if (refusal === undefined || refusal.code === "mismatch") refusal = error;
    }
  }
  if (signed === undefined) {
    const again = await outcomeAfterExpiry(call, confirmation, refusal);
    if (again !== undefined) return again;
    if (refusal === undefined || refusal.code === "mismatch") {
      return refused(call, {
        code: "confirmation_invalid",
        message: "confirmation refused: it does not cover the confirm line and a preview this sidecar gave for this op and these args",
        next_action: "Show the member the chip confirmation_required gave (confirm, a line feed, preview) and ask them to confirm exactly that.",
      });
    }
    return refused(call, confirmationRefusal(refusal));
  }
  const { checked } = signed;
  // The same call again after its write ran: its stored outcome, before the preview is read (the write changed what it shows).
  if ((await state.storedOutcome(checked)) !== undefined) return await answerAgain(state, checked, grant.integration, slot.op);
  const read = await readPreview(call);
  if (!read.ok) return read.answer;
  if (read.preview !== signed.preview) {
    await state.rememberPreview(slot, read.preview);
    return {
      status: "error",
      integration: grant.integration,
      op: slot.op,
      error: {
        code: "target_changed",
        message: "what this write touches changed since the member confirmed it; nothing was written",
        next_action: "Show the member the new chip (confirm, a line feed, preview) and ask them to confirm again.",
      },
      confirm,
      preview: read.preview,
      details: confirmDetails(call.operation.confirm ?? call.operation.label, call.args),
      args_digest: slot.argsDigest,
      gid: grant.gid,
    };
  }
  if (!(await state.consumeConfirmation(checked))) return await answerAgain(state, checked, grant.integration, slot.op);
  call.consumed = checked;
  return undefined;
}

/**
 * The same call sent again once its confirmation can no longer be checked (it
 * expired, or the previews it covered are forgotten): the stored outcome of the
 * write it ran answers, for as long as it is kept (the confirmation's life plus
 * ten minutes), so a member told the write ran is never asked to tap it again.
 * `undefined` when the refusal is another (a bad signature, other args) or no
 * write ran under it.
 */
async function outcomeAfterExpiry(call: AdmittedCall, confirmation: string, refusal: GrantError | undefined): Promise<RunAnswer | undefined> {
  if (refusal !== undefined && refusal.code !== "expired" && refusal.code !== "mismatch") return undefined;
  let recalled: ReturnType<typeof recallConfirmation>;
  try {
    recalled = recallConfirmation(confirmation, { grant: call.grant, op: call.operation.id, args: call.args });
  } catch (error) {
    if (GrantError.isInstance(error)) return undefined;
    throw error;
  }
  if ((await call.context.state.storedOutcome(recalled)) === undefined) return undefined;
  return await answerAgain(call.context.state, recalled, call.grant.integration, call.operation.id);
}
