import { randomUUID } from "node:crypto";
import type { RunAnswer } from "../run/answers.js";
import type { AuditRecord } from "./audit-log.js";
import type { CallFacts } from "../call/call.js";

/** The upstream HTTP status an answer carries, if the executor got one. */
function upstreamStatus(answer: RunAnswer): number | null {
  if (answer.status === "ok") return answer.http_status;
  if (answer.status === "error" && "http_status" in answer.error && typeof answer.error.http_status === "number") {
    return answer.error.http_status;
  }
  return null;
}

/** A run's line: who, what, the call's one `audit_id`, and how it ended (built field by field, in the file's order). */
function runLine(auditId: string, facts: CallFacts, status: string, code: string | null, httpStatus: number | null, durationMs: number): AuditRecord {
  return {
    time: new Date().toISOString(),
    audit_id: auditId,
    gid: facts.gid,
    member: facts.member,
    integration: facts.integration,
    op: facts.op,
    access: facts.access,
    args_digest: facts.args_digest,
    account: facts.account,
    status,
    code,
    http_status: httpStatus,
    duration_ms: durationMs,
    ...(facts.aid === undefined ? {} : { aid: facts.aid }),
    ...(facts.preview === undefined ? {} : { preview: facts.preview }),
  };
}

/** The audit line of a run that produced an envelope; a write's outcome shares its `started` line's `auditId`. */
export function runAuditRecord(auditId: string, facts: CallFacts, answer: RunAnswer, durationMs: number): AuditRecord {
  const record = runLine(auditId, facts, answer.status, answer.status === "error" ? answer.error.code : null, upstreamStatus(answer), durationMs);
  if ((answer.status === "ok" || answer.status === "error") && answer.replayed === true) record.replayed = true;
  return record;
}

/**
 * The audit line of a call that reached the handler but was not a run
 * (`invalid_body`, or a failure inside the sidecar): the op only when it is
 * well-formed, nothing else from the body.
 */
export function failedCallAuditRecord(op: string | null, code: string, durationMs: number, facts?: CallFacts): AuditRecord {
  return {
    time: new Date().toISOString(),
    audit_id: randomUUID(),
    gid: facts?.gid ?? null,
    member: facts?.member ?? null,
    integration: facts?.integration ?? null,
    op,
    access: facts?.access ?? null,
    args_digest: facts?.args_digest ?? null,
    account: facts?.account ?? null,
    status: "error",
    code,
    http_status: null,
    duration_ms: durationMs,
  };
}

/** The line a write gets once every check passed, flushed before it is sent: `status: "started"`. Its outcome follows in a second line. */
export function startedAuditRecord(auditId: string, facts: CallFacts, durationMs: number): AuditRecord {
  return runLine(auditId, facts, "started", null, null, durationMs);
}

/** The line of a revocation `POST /v1/revoke` recorded: `status: "revoked"`, the grant and its member, no op. */
export function revocationAuditRecord(
  revoked: { gid?: string | undefined; aid?: string | undefined; sid?: string | undefined },
  member: string,
  integration: string,
  durationMs: number,
): AuditRecord {
  return {
    time: new Date().toISOString(),
    audit_id: randomUUID(),
    // A revoked subscription's line names its sid where a grant's names its gid (both random 16 bytes).
    gid: revoked.gid ?? revoked.sid ?? null,
    ...(revoked.aid === undefined ? {} : { aid: revoked.aid }),
    member,
    integration,
    op: null,
    access: null,
    args_digest: null,
    account: null,
    status: "revoked",
    code: null,
    http_status: null,
    duration_ms: durationMs,
  };
}
