import { fromBase64Url, resultDigest, signReceipt, type KeyPair } from "@eleven-integrations/grants";
import type { RunAnswer } from "./answers.js";

/** Bytes of an Ed25519 signature, which a confirmation token carries before its payload. */
const SIGNATURE_BYTES = 64;

/** What a receipt says besides the answer: the write, its grant, its confirmation and the registry that ran it. */
export interface ReceiptContext {
  /** The confirmation the write ran under, already verified and consumed. */
  confirmation: string;
  gid: string;
  integration: string;
  op: string;
  manifest_hash: string;
  registry_hash: string;
  /** The `audit_id` of the write's `started` and outcome lines. */
  audit_id: string;
  keys: KeyPair;
}

/** The signed fields of a confirmation that a receipt repeats; read after it verified, so its payload is the member's. */
function confirmationFields(token: string): { args_digest: string; line_digest: string; nonce: string } {
  const bytes = fromBase64Url(token.slice(token.indexOf(".") + 1));
  const payload = JSON.parse(Buffer.from(bytes.subarray(SIGNATURE_BYTES)).toString("utf8")) as Record<string, string>;
  return { args_digest: String(payload.args_digest), line_digest: String(payload.line_digest), nonce: String(payload.nonce) };
}

/** The provider's status when one came back, `undefined` when the write did not reach it (no receipt then). */
function ranStatus(answer: RunAnswer): number | null | undefined {
  if (answer.status === "ok") return answer.http_status;
  if (answer.status !== "error") return undefined;
  if (answer.error.code === "outcome_unknown") return null;
  return typeof answer.error.http_status === "number" ? answer.error.http_status : undefined;
}

/**
 * The answer of a write that was sent, with `receipt`: the sidecar's Ed25519
 * signature over what ran and how it ended (`signReceipt` in grants). A write
 * ran when the provider answered (`ok`, or an error with its `http_status`) or
 * the request left and no answer came (`outcome_unknown`); any other answer
 * (refused before sending, a network error before the request was written) is
 * returned as it is.
 */
export function withReceipt(answer: RunAnswer, context: ReceiptContext): RunAnswer {
  const httpStatus = ranStatus(answer);
  if (httpStatus === undefined || (answer.status !== "ok" && answer.status !== "error")) return answer;
  const receipt = signReceipt(
    {
      gid: context.gid,
      integration: context.integration,
      op: context.op,
      manifest_hash: context.manifest_hash,
      ...confirmationFields(context.confirmation),
      status: answer.status,
      http_status: httpStatus,
      result_digest: resultDigest(answer.status === "ok" ? answer.data : undefined),
      audit_id: context.audit_id,
      registry_hash: context.registry_hash,
    },
    { key: context.keys.secretKey },
  );
  return { ...answer, receipt };
}
