import { serializeEnvelope } from "@eleven-integrations/executor";
import type { FastifyBaseLogger } from "fastify";
import { failedCallAuditRecord, runAuditRecord } from "../audit/audit-record.js";
import type { AuditRecord, AuditSink } from "../audit/audit-log.js";
import { httpErrorBody, type BodyIssue } from "../http/http-error.js";
import type { RunAnswer } from "../run/answers.js";
import { elapsedMs, type Call, type CallResult } from "./call.js";
import { withReceipt, type SignedFor } from "./receipt.js";
import { argsDigest } from "@eleven-integrations/grants";

/**
 * The last step of every call: a write that was sent gets its receipt, a
 * consumed confirmation keeps the write's outcome for the same call sent again,
 * and the audit line is written (flushed for a write) before anything is
 * answered. The bot gets the envelope, or what the call chose to show instead
 * (`call.shown`: `whoami` answers the account, and audits the identity op's envelope).
 */
export async function settle(call: Call, answer: RunAnswer): Promise<CallResult> {
  const final = call.sent ? receipted(call, answer) : answer;
  if (call.consumed !== undefined) await storeOutcome(call, final);
  const durable = call.facts.access === "write" && final.status !== "confirmation_required";
  // An executor envelope goes out as the JSON text the executor already measured (a receipted one is a new object).
  const payload = call.shown ?? serializeEnvelope(final);
  return await audited(
    call.context.audit,
    runAuditRecord(call.auditId, call.facts, final, elapsedMs(call.started)),
    call.log,
    { statusCode: 200, payload },
    durable,
  );
}

/** A call whose body did not parse: audited with the op only when it is well-formed, answered 400 with what was wrong. */
export async function settleInvalidBody(audit: AuditSink, log: FastifyBaseLogger, op: string | null, started: number, issues: BodyIssue[], message: string) {
  return await audited(audit, failedCallAuditRecord(op, "invalid_body", elapsedMs(started)), log, {
    statusCode: 400,
    payload: httpErrorBody("invalid_body", message, issues),
  });
}

/** A call that failed inside the sidecar: audited with what it learned, answered 500. */
export async function settleInternalError(call: Call, error: unknown): Promise<CallResult> {
  call.log.error({ err: error }, "run failed inside the sidecar");
  const record = failedCallAuditRecord(call.facts.op, "internal_error", elapsedMs(call.started), call.facts);
  return await audited(call.context.audit, record, call.log, {
    statusCode: 500,
    payload: httpErrorBody("internal_error", "the sidecar failed to run this call"),
  });
}

/** Writes the audit line, then gives the result; an unwritable audit log answers 500 instead. */
export async function audited(audit: AuditSink, record: AuditRecord, log: FastifyBaseLogger, result: CallResult, durable = false): Promise<CallResult> {
  try {
    await audit.append(record, { durable });
  } catch (error) {
    log.error({ err: error }, "audit log write failed");
    return { statusCode: 500, payload: httpErrorBody("audit_unavailable", "the audit log could not be written; nothing is answered without it") };
  }
  return result;
}

/** A write that was sent answers with its receipt (`withReceipt` decides whether it ran). */
function receipted(call: Call, answer: RunAnswer): RunAnswer {
  const { grant } = call;
  const manifestHash = grant === undefined ? undefined : call.snapshot.registry.manifestHash(grant.integration);
  const signed = signedFor(call);
  if (signed === undefined || grant === undefined || manifestHash === undefined) return answer;
  return withReceipt(answer, {
    signed,
    bot: grant.aud,
    account: grant.account,
    integration: grant.integration,
    op: call.facts.op,
    manifest_hash: manifestHash,
    registry_hash: call.snapshot.info.hash,
    audit_id: call.auditId,
    keys: call.context.receiptKeys(),
  });
}

/** What the member signed for the call's write: its consumed confirmation, or the standing approval it ran under. */
function signedFor(call: Call): SignedFor | undefined {
  const { consumed, approved, grant } = call;
  if (consumed !== undefined) return consumed;
  if (approved === undefined || grant === undefined) return undefined;
  return {
    gid: grant.gid,
    member: grant.iss,
    argsDigest: argsDigest(call.args),
    lineDigest: approved.approval.line_digest,
    nonce: approved.nonce,
    aid: approved.approval.aid,
  };
}

/**
 * Keeps a confirmed write's answer (receipt included) for the same call sent
 * again. A store that cannot take it is logged, not answered: the write ran, and
 * the bot gets its outcome now; the same call again then answers "in progress".
 */
async function storeOutcome(call: Call, answer: RunAnswer): Promise<void> {
  if (call.consumed === undefined) return;
  try {
    await call.context.state.storeOutcome(call.consumed, serializeEnvelope(answer));
  } catch (error) {
    // The name only: a Redis error's message can name its URL.
    call.log.error(
      { kind: error instanceof Error ? error.name : "unknown" },
      "the outcome of a write could not be stored: the same call again cannot answer it",
    );
  }
}
