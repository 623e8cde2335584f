import { resultDigest, signReceipt, type CheckedConfirmation, type GrantAccount, type KeyPair } from "@eleven-integrations/grants";
import type { RunAnswer } from "../run/answers.js";

/** What a receipt says besides the answer: the write, its confirmation and the registry that ran it. */
export interface ReceiptContext {
  /** The confirmation the write ran under, checked and consumed: its grant, digests and nonce. */
  confirmation: CheckedConfirmation;
  /** The bot the grant was sealed to (its `aud`). */
  bot: string;
  /** The account the grant's credential acts as, when the grant names one. */
  account: GrantAccount | undefined;
  integration: string;
  op: string;
  manifest_hash: string;
  registry_hash: string;
  /** The `audit_id` of the write's `started` and outcome lines. */
  audit_id: string;
  keys: KeyPair;
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
      gid: context.confirmation.gid,
      iss: context.confirmation.member,
      aud: context.bot,
      ...(context.account === undefined ? {} : { account: { id: context.account.id, name: context.account.name } }),
      integration: context.integration,
      op: context.op,
      manifest_hash: context.manifest_hash,
      args_digest: context.confirmation.argsDigest,
      line_digest: context.confirmation.lineDigest,
      nonce: context.confirmation.nonce,
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
