import type { FastifyReply } from "fastify";
import type { AuditRecord, AuditSink } from "../audit/audit-log.js";
import { httpErrorBody } from "./http-error.js";

/** Writes the audit line, then answers `payload` (an object, or JSON text already serialised); an unwritable audit log answers 500. */
export async function auditedAnswer(
  reply: FastifyReply,
  audit: AuditSink,
  record: AuditRecord,
  statusCode: number,
  payload: object | string,
  durable = false,
): Promise<FastifyReply> {
  try {
    await audit.append(record, { durable });
  } catch (error) {
    reply.log.error({ err: error }, "audit log write failed");
    return reply.code(500).send(httpErrorBody("audit_unavailable", "the audit log could not be written; nothing is answered without it"));
  }
  if (typeof payload === "string") reply.type("application/json; charset=utf-8");
  return reply.code(statusCode).send(payload);
}
