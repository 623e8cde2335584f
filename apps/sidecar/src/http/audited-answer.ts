import type { FastifyReply } from "fastify";
import type { AuditRecord, AuditSink } from "../audit/audit-log.js";
import type { CallResult } from "../call/call.js";
import { audited } from "../call/settle.js";

/** Answers a call's result: its status, and its body (an object, or JSON text already serialised). */
export function sendResult(reply: FastifyReply, result: CallResult): FastifyReply {
  if (typeof result.payload === "string") reply.type("application/json; charset=utf-8");
  return reply.code(result.statusCode).send(result.payload);
}

/** Writes the audit line, then answers `payload`; an unwritable audit log answers 500. */
export async function auditedAnswer(
  reply: FastifyReply,
  audit: AuditSink,
  record: AuditRecord,
  statusCode: number,
  payload: object | string,
  durable = false,
): Promise<FastifyReply> {
  return sendResult(reply, await audited(audit, record, reply.log, { statusCode, payload }, durable));
}
