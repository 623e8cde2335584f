import type { GrantError, GrantErrorCode } from "@eleven-integrations/grants";
import type { Refusal } from "../run/answers.js";

const CONFIRM_NEXT_ACTION: Partial<Record<GrantErrorCode, string>> = {
  replayed: "Ask the member to confirm again: each confirmation runs the operation once.",
  expired: "Ask the member to confirm again: the confirmation expired.",
  mismatch: "Ask the member to confirm exactly this operation and these args (the line confirmation_required gave).",
};

/** A confirmation `verifyConfirmation` refused, as the run's `confirmation_invalid`. */
export function confirmationRefusal(error: GrantError): Refusal {
  return {
    code: "confirmation_invalid",
    message: `confirmation refused (${error.code}): ${error.message}`,
    next_action: CONFIRM_NEXT_ACTION[error.code] ?? "Ask the member to confirm the operation again.",
  };
}
