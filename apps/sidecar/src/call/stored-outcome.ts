import { GrantError, type CheckedConfirmation } from "@eleven-integrations/grants";
import type { SharedState } from "../state/shared-state.js";
import type { RunAnswer } from "../run/answers.js";
import { confirmationRefusal } from "./confirmation-refusal.js";

/** What a refused second use of a consumed confirmation answers: the write still running. */
export const IN_PROGRESS_NEXT_ACTION = "the write is in progress; send the same call again in a moment to get its outcome";

/**
 * The answer to a confirmation already consumed by the same call (same member,
 * grant, op, args; the confirmation verified for them): the stored envelope of
 * its write with `replayed: true` when it was sent (it has a receipt); the
 * usual "replayed" refusal when it was not (nothing was sent, the member
 * confirms again); "in progress" while its first run has not stored an outcome.
 * Nothing is sent to the provider either way.
 */
export async function answerAgain(state: SharedState, checked: CheckedConfirmation, integration: string, op: string): Promise<RunAnswer> {
  const stored = await state.storedOutcome(checked);
  if (stored === undefined) {
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
  const answer = JSON.parse(stored) as RunAnswer;
  if ((answer.status === "ok" || answer.status === "error") && answer.receipt !== undefined) return { ...answer, replayed: true };
  return { status: "error", integration, op, error: confirmationRefusal(new GrantError("replayed", "the confirmation was already used")) };
}
