import type { Envelope } from "@eleven-integrations/executor";
import type { ConfirmDetail } from "@eleven-integrations/grants";

/** Refusals the sidecar adds to the executor's codes. */
export type RefusalCode = "grant_expired" | "grant_invalid" | "access_denied" | "confirmation_invalid" | "rate_limited" | "unavailable";

export interface Refusal {
  code: RefusalCode;
  message: string;
  /** Whole seconds to wait before trying again (`rate_limited`). */
  retry_after_s?: number;
  /** What a person can do about it. */
  next_action: string;
}

/** A refused run or palette: the integration is `null` when the grant did not open. */
export interface RefusalEnvelope {
  status: "error";
  integration: string | null;
  op: string;
  error: Refusal;
}

/**
 * A write that needs the member's tap: `confirm` is the exact line to show as a
 * chip, `details` what must be shown beside it (every arg the line leaves out or
 * cuts, in full, and values with hidden characters or look-alike letters).
 */
export interface ConfirmationRequired {
  status: "confirmation_required";
  integration: string;
  op: string;
  confirm: string;
  details: ConfirmDetail[];
  args_digest: string;
  gid: string;
}

/** Every answer `POST /v1/run` gives a well-formed, authorised call (always HTTP 200). */
export type RunAnswer = Envelope | RefusalEnvelope | ConfirmationRequired;

/** One op of a palette: the manifest's args as written, and for a write its confirm template. */
export interface PaletteOperation {
  id: string;
  label: string;
  access: "read" | "write";
  args: Record<string, unknown>;
  confirm?: string;
  /** Present (true) when the manifest marks the op destructive. */
  destructive?: true;
  /**
   * Present when the op pages: `arg` is the arg that carries the cursor, absent when the op
   * takes none (its pages continue through another op, `page.next_op`, or a next path); a
   * run passes `page` (an answer's `next_page`) instead.
   */
  page?: { arg?: string };
}

export interface Palette {
  status: "ok";
  integration: string;
  access: "read" | "write";
  ops: PaletteOperation[];
}

export interface PaletteRefusal {
  status: "error";
  integration: string | null;
  error: Refusal;
}

/** Every answer `POST /v1/ops` gives a well-formed, authorised call (always HTTP 200). */
export type OpsAnswer = Palette | PaletteRefusal;
