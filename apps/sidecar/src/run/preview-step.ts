import type { Executor } from "@eleven-integrations/executor";
import { argsDigest, confirmDetails, GrantError, renderPreview, verifyConfirmationAsync, type Grant } from "@eleven-integrations/grants";
import type { CompiledOperation } from "@eleven-integrations/loader";
import type { ErrorEnvelope } from "@eleven-integrations/sidecar-protocol";
import { rateLimitedRefusal } from "../state/state-refusals.js";
import type { SharedState } from "../state/shared-state.js";
import type { RunAnswer } from "./answers.js";
import { confirmationRefusal } from "./confirmation-refusal.js";
import { answerAgain } from "./stored-outcome.js";

/** The line a member signs for a write: its confirm line, and with a preview, a line feed and the preview. */
export function signedLine(confirm: string, preview: string | undefined): string {
  return preview === undefined ? confirm : `${confirm}\n${preview}`;
}

export type PreviewResult = { ok: true; preview: string } | { ok: false; answer: ErrorEnvelope };

/**
 * Runs a write's preview read with the grant's credential and connection (the
 * executor's host pin and limits apply) and renders its line with grants'
 * `renderPreview`, the renderer a member's client uses, so each value is
 * neutralised like a confirm value. A failed read answers its own envelope under
 * the write's op, its message naming the read; nothing is written.
 */
export async function readPreview(executor: Executor, grant: Grant, operation: CompiledOperation, args: Record<string, string>): Promise<PreviewResult> {
  const preview = operation.preview;
  if (preview === undefined) throw new TypeError(`${operation.id} declares no preview`);
  const answer = await executor.run({
    integration: grant.integration,
    op: preview.op,
    args: preview.args(args),
    credential: { token: grant.cred.token, kind: grant.cred.kind },
    ...(grant.connection === undefined ? {} : { connection: grant.connection }),
  });
  if (answer.status === "error") {
    return {
      ok: false,
      answer: {
        status: "error",
        integration: grant.integration,
        op: operation.id,
        error: { ...answer.error, message: `the preview read ${preview.op} failed, nothing was written: ${answer.error.message}` },
      },
    };
  }
  const data = answer.data;
  if (data === null || typeof data !== "object" || Array.isArray(data)) {
    return {
      ok: false,
      answer: {
        status: "error",
        integration: grant.integration,
        op: operation.id,
        error: {
          code: "bad_response",
          message: `the preview read ${preview.op} answered ${Array.isArray(data) ? "a list" : "no object"}, so its line cannot be shown; nothing was written`,
          next_action: "Try again later; if it persists, the integration's preview needs fixing.",
        },
      },
    };
  }
  return { ok: true, preview: renderPreview(preview.declaration.line, data as Record<string, unknown>) };
}

export interface PreviewedWrite {
  grant: Grant;
  operation: CompiledOperation;
  args: Record<string, string>;
  /** The write's rendered confirm line. */
  confirm: string;
  context: { executor: Executor; state: SharedState };
}

/** On success, the confirmation's replay key and expiry, consumed. */
export type PreviewedWriteResult = { ok: true; key: string; exp: number } | { ok: false; answer: RunAnswer };

/**
 * A confirmed write that declares a preview, every check before anything is
 * written, the confirmation consumed last: the confirmation must verify (member,
 * grant, op, args) over the confirm line and a preview a sidecar of this bot gave for
 * these args, as the shared state keeps them (one none gave is `confirmation_invalid`, nothing read); the
 * preview is read again and rendered afresh; a different line answers
 * `target_changed` with the new chip and leaves the confirmation unused (if the
 * target changes back, the same tap still runs once); a failed read answers its
 * own envelope. Only when the fresh line is the signed one is the confirmation
 * consumed. A confirmation consumed before (the same call sent again) answers
 * its write's stored outcome (`answerAgain`), without reading the preview.
 */
export async function confirmPreviewedWrite(confirmation: string, write: PreviewedWrite): Promise<PreviewedWriteResult> {
  const { grant, operation, args, confirm, context } = write;
  const refuse = (error: ErrorEnvelope["error"]): PreviewedWriteResult => ({
    ok: false,
    answer: { status: "error", integration: grant.integration, op: operation.id, error },
  });
  const digest = argsDigest(args);

  let signed: { preview: string; key: string; exp: number } | undefined;
  let refusal: GrantError | undefined;
  for (const preview of await context.state.givenPreviews(grant.iss, grant.gid, operation.id, digest)) {
    try {
      let taken: { key: string; exp: number } | undefined;
      // Every check but the replay one: the confirmation is consumed only once the target is known unchanged.
      await verifyConfirmationAsync(confirmation, {
        grant,
        op: operation.id,
        args,
        line: signedLine(confirm, preview),
        replay: {
          consume: async (key, exp) => {
            taken = { key, exp };
            return true;
          },
        },
      });
      if (taken !== undefined) signed = { preview, ...taken };
      break;
    } catch (error) {
      if (!GrantError.isInstance(error)) throw error;
      // Keep the most telling reason: one that is not "another line" (signature, expiry) says more than a mismatch of previews.
      if (refusal === undefined || refusal.code === "mismatch") refusal = error;
    }
  }
  if (signed === undefined) {
    if (refusal === undefined || refusal.code === "mismatch") {
      return refuse({
        code: "confirmation_invalid",
        message: "confirmation refused: it does not cover the confirm line and a preview this sidecar gave for this op and these args",
        next_action: "Show the member the chip confirmation_required gave (confirm, a line feed, preview) and ask them to confirm exactly that.",
      });
    }
    return refuse(confirmationRefusal(refusal));
  }

  // The same call again after its write ran: its stored outcome, before the preview is read (the write changed what it shows).
  const consumed = { member: grant.iss, key: signed.key, argsDigest: digest };
  if ((await context.state.storedOutcome(grant.iss, signed.key, digest)) !== undefined) {
    return { ok: false, answer: await answerAgain(context.state, consumed, grant.integration, operation.id) };
  }
  const limited = await context.state.takeRun(grant.iss, grant.gid, grant.integration, "shared");
  if (!limited.ok) return refuse(rateLimitedRefusal(limited));
  const read = await readPreview(context.executor, grant, operation, args);
  if (!read.ok) return read;
  if (read.preview !== signed.preview) {
    await context.state.rememberPreview(grant.iss, grant.gid, operation.id, digest, read.preview);
    return {
      ok: false,
      answer: {
        status: "error",
        integration: grant.integration,
        op: operation.id,
        error: {
          code: "target_changed",
          message: "what this write touches changed since the member confirmed it; nothing was written",
          next_action: "Show the member the new chip (confirm, a line feed, preview) and ask them to confirm again.",
        },
        confirm,
        preview: read.preview,
        details: confirmDetails(operation.confirm ?? operation.label, args),
        args_digest: digest,
        gid: grant.gid,
      },
    };
  }
  if (!(await context.state.consumeConfirmation(grant.iss, signed.key, signed.exp))) {
    return { ok: false, answer: await answerAgain(context.state, consumed, grant.integration, operation.id) };
  }
  return { ok: true, key: signed.key, exp: signed.exp };
}
