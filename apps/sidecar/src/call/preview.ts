import { renderPreview } from "@eleven-integrations/grants";
import type { ErrorEnvelope } from "@eleven-integrations/sidecar-protocol";
import type { AdmittedCall } from "./call.js";
import { send } from "./send.js";

/** The line a member signs for a write: its confirm line, and with a preview, a line feed and the preview. */
export function signedLine(confirm: string, preview: string | undefined): string {
  return preview === undefined ? confirm : `${confirm}\n${preview}`;
}

/**
 * Whether this call's write shows a preview: the op declares one and the grant
 * could run that read itself (its allow-list, when it has one, names the read).
 * A preview shows only what the grant could read: a grant allowed one write
 * and not its read gets the chip without a preview, and its tap is over the
 * confirm line alone.
 */
export function showsPreview(call: Pick<AdmittedCall, "grant" | "operation">): boolean {
  const preview = call.operation.preview;
  if (preview === undefined) return false;
  return call.grant.ops === undefined || call.grant.ops.includes(preview.op);
}

export type PreviewResult = { ok: true; preview: string } | { ok: false; answer: ErrorEnvelope };

/**
 * Runs a write's preview read through `send`, with the grant's credential and
 * connection (the executor's host pin and limits apply), and renders its line with
 * grants' `renderPreview`, the renderer a member's client uses, so each value is
 * neutralised like a confirm value. A failed read answers its own envelope under
 * the write's op, its message naming the read; nothing is written.
 */
export async function readPreview(call: AdmittedCall): Promise<PreviewResult> {
  const { operation } = call;
  const preview = operation.preview;
  if (preview === undefined) throw new TypeError(`${operation.id} declares no preview`);
  // A failed read answers under the write's op: the bot asked for the write.
  const failed = (error: ErrorEnvelope["error"]): PreviewResult => ({
    ok: false,
    answer: { status: "error", integration: call.grant.integration, op: operation.id, error },
  });
  const answer = await send(call, { op: preview.op, args: preview.args(call.args) });
  if (answer.status === "error")
    return failed({ ...answer.error, message: `the preview read ${preview.op} failed, nothing was written: ${answer.error.message}` });
  const data = answer.status === "ok" ? answer.data : undefined;
  if (data === null || typeof data !== "object" || Array.isArray(data)) {
    return failed({
      code: "bad_response",
      message: `the preview read ${preview.op} answered ${Array.isArray(data) ? "a list" : "no object"}, so its line cannot be shown; nothing was written`,
      next_action: "Try again later; if it persists, the integration's preview needs fixing.",
    });
  }
  // A selector (`transitions[id={transition_id}].to.name`) is resolved with the write's args before the line is filled.
  return { ok: true, preview: renderPreview(preview.declaration.line, preview.fields(data as Record<string, unknown>, call.args)) };
}
