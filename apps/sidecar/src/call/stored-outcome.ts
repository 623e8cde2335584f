import { GrantError, type ConfirmationRef } from "@eleven-integrations/grants";
import { PENDING_OUTCOME, type SharedState } from "../state/shared-state.js";
import type { RunAnswer } from "../run/answers.js";
import { confirmationRefusal } from "./confirmation-refusal.js";

/** What a refused second use of a consumed confirmation answers: the write still running. */
export const IN_PROGRESS_NEXT_ACTION = "the write is in progress; send the same call again in a moment to get its outcome";

/**
 * The answer to a confirmation already consumed by the same call (same member,
 * grant, op, args; the confirmation verified for them): the stored envelope of
 * its write with `replayed: true` when it was sent (it has a receipt); "in
 * progress" while its write is in flight (the slot its consume marked pending);
 * the usual "replayed" refusal otherwise (nothing was sent, or the store lost
 * what it knew: the member confirms again, never "send again"). Nothing is sent
 * to the provider either way.
 */
export async function answerAgain(state: SharedState, confirmation: ConfirmationRef, integration: string, op: string): Promise<RunAnswer> {
  const stored = await state.storedOutcome(confirmation);
  if (stored === PENDING_OUTCOME) {
    return {
      status: "error",
      integration,
      op,
      error: {
        code: "confirmation_invalid",
        message: "confirmation refused (replayed): its write is still running and has no outcome yet",
        next_action: IN_PROGRESS_NEXT_ACTION,
      },
    };
  }
  const answer = stored === undefined ? undefined : (JSON.parse(stored) as RunAnswer);
  if (answer !== undefined && (answer.status === "ok" || answer.status === "error") && answer.receipt !== undefined) return { ...answer, replayed: true };
  return { status: "error", integration, op, error: confirmationRefusal(new GrantError("replayed", "the confirmation was already used")) };
}
