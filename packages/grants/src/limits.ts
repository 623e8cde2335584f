/** Longest grant token `openGrant` reads, in characters; anything longer is refused before any crypto. */
export const MAX_GRANT_LENGTH = 16 * 1024;
/** Longest confirmation token `verifyConfirmation` reads, in characters. */
export const MAX_CONFIRMATION_LENGTH = 4 * 1024;
/** Longest revocation token `verifyRevocation` reads, in characters: it carries the sealed grant. */
export const MAX_REVOCATION_LENGTH = 24 * 1024;
/** Longest a grant may live: `exp - iat`, in seconds. */
export const MAX_GRANT_TTL_SECONDS = 3600;
/** Default and longest life of a confirmation, in seconds. */
export const MAX_CONFIRMATION_TTL_SECONDS = 300;
/** Clock difference tolerated between the member's device and the verifier, in seconds. */
export const CLOCK_SKEW_SECONDS = 60;
/** Longest value `renderConfirm` shows, in code points. */
export const MAX_CONFIRM_VALUE_CODE_POINTS = 120;
/**
 * Longest confirm line `renderConfirm` draws, in code points: the template's own
 * text is never cut, and the values share what is left (see README, "The whole line").
 */
export const MAX_CONFIRM_LINE_CODE_POINTS = 600;
/** Fewest code points a value is cut to so the line fits `MAX_CONFIRM_LINE_CODE_POINTS`. */
export const MIN_CONFIRM_VALUE_CODE_POINTS = 16;

/** Unix time in whole seconds. */
export function unixNow(): number {
  return Math.floor(Date.now() / 1000);
}
/** Most combining marks `renderConfirm` shows on one base character; the rest of the stack shows as one U+FFFD. */
export { MAX_COMBINING_MARKS } from "@eleven-integrations/schema";
/** Longest approval token `openApproval` reads, in characters; `issueApproval` refuses to make a longer one. */
export const MAX_APPROVAL_LENGTH = 16 * 1024;
/** Longest a standing approval may live: `exp - iat`, in seconds (30 days). */
export const MAX_APPROVAL_TTL_SECONDS = 30 * 24 * 3600;
/** Longest subscription token `openSubscription` reads, in characters; `issueSubscription` refuses to make a longer one. */
export const MAX_SUBSCRIPTION_LENGTH = 16 * 1024;
/** Longest an event subscription may live: `exp - iat`, in seconds (30 days). */
export const MAX_SUBSCRIPTION_TTL_SECONDS = 30 * 24 * 3600;
