import type { REFUSAL_CODES, RunError } from "@eleven-integrations/sidecar-protocol";

// The answers' shapes are the contract's (@eleven-integrations/sidecar-protocol); these are the sidecar's own narrower views.
export type { RunAnswer, ConfirmationRequired, OpsAnswer, Palette, PaletteOperation, PaletteRefusal } from "@eleven-integrations/sidecar-protocol";

/** Refusals the sidecar adds to the executor's codes. */
export type RefusalCode = (typeof REFUSAL_CODES)[number];

/** A refusal's `error`: what it was, what to do, and for `rate_limited` how long to wait. */
export type Refusal = Pick<RunError, "message" | "next_action" | "retry_after_s"> & { code: RefusalCode };

/** A refused run: the integration is `null` when the grant did not open. */
export interface RefusalEnvelope {
  status: "error";
  integration: string | null;
  op: string;
  error: Refusal;
}
