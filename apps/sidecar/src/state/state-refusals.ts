import type { Refusal } from "../run/answers.js";
import type { RateDecision } from "./shared-state.js";

/** A grant its member revoked: refused by every sidecar that shares the store. */
export const REVOKED_REFUSAL: Refusal = {
  code: "grant_invalid",
  message: "the member revoked this grant",
  next_action: "Ask the member for a fresh grant: they revoked this one.",
};

/** The shared store is unreachable: a write is refused, nothing is sent. */
export const UNAVAILABLE_REFUSAL: Refusal = {
  code: "unavailable",
  message:
    "the sidecar cannot reach its shared state (Redis, or its journal on disk), where every write's confirmation and limits are recorded; nothing was sent",
  next_action: "Try again in a few seconds; if it lasts, ask the bot's operator to check the sidecar's Redis or disk.",
};

export function rateLimitedRefusal(decision: Extract<RateDecision, { ok: false }>): Refusal {
  const whose = decision.scope === "grant" ? "this grant" : "this integration on this bot";
  return {
    code: "rate_limited",
    message: `too many runs for ${whose}; nothing was sent`,
    retry_after_s: decision.retryAfterSeconds,
    next_action: `Wait ${decision.retryAfterSeconds} s, then try again.`,
  };
}
