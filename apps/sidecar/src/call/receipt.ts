import { resultDigest, signReceipt, type GrantAccount, type KeyPair } from "@eleven-integrations/grants";
import type { RunAnswer } from "../run/answers.js";

/**
 * What the member signed for the write: a checked and consumed confirmation
 * (its grant, digests and nonce), or a standing approval (its `aid` and line
 * digest, the run's args digest and a nonce of the run's own).
 */
export interface SignedFor {
  readonly gid: string;
  readonly member: string;
  readonly argsDigest: string;
  readonly lineDigest: string;
  readonly nonce: string;
  readonly aid?: string;
}

/** What a receipt says besides the answer: the write, what the member signed for it and the registry that ran it. */
export interface ReceiptContext {
  signed: SignedFor;
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
      gid: context.signed.gid,
      iss: context.signed.member,
      ...(context.signed.aid === undefined ? {} : { aid: context.signed.aid }),
      aud: context.bot,
      ...(context.account === undefined ? {} : { account: { id: context.account.id, name: context.account.name } }),
      integration: context.integration,
      op: context.op,
      manifest_hash: context.manifest_hash,
      args_digest: context.signed.argsDigest,
      line_digest: context.signed.lineDigest,
      nonce: context.signed.nonce,
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
