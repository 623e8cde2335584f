import { randomUUID } from "node:crypto";
import { performance } from "node:perf_hooks";
import { serializeEnvelope } from "@eleven-integrations/executor";
import type { FastifyInstance, FastifyReply } from "fastify";
import fastifyPlugin from "fastify-plugin";
import { failedCallAuditRecord, runAuditRecord, startedAuditRecord } from "../audit/audit-record.js";
import { parseRunBody, wellFormedOp, type RunBody } from "@eleven-integrations/sidecar-protocol";
import { initialFacts, runFlow, type RunFacts } from "../run/run-flow.js";
import type { RunAnswer } from "../run/answers.js";
import { withReceipt } from "../run/write-receipt.js";
import type { ConsumedConfirmation } from "../run/stored-outcome.js";
import type { RegistrySnapshot } from "../registry/live-registry.js";
import { auditedAnswer } from "./audited-answer.js";
import { elapsedMs, runContext, SIDECAR_CONTEXT, type SidecarContext } from "./context.js";
import { httpErrorBody, INVALID_BODY_MESSAGE } from "./http-error.js";

/** `POST /v1/run { grant, op, args?, confirmation?, page? }`: one run, its audit line written before it is answered. */
async function runRoutes(app: FastifyInstance): Promise<void> {
  const { sidecar } = app;
  app.post("/v1/run", async (request, reply) => {
    const work = handleRun(request.body, reply, sidecar);
    sidecar.inFlight.add(work);
    try {
      return await work;
    } finally {
      sidecar.inFlight.delete(work);
    }
  });
}

export const runPlugin = fastifyPlugin(runRoutes, { name: "run", dependencies: [SIDECAR_CONTEXT], encapsulate: true, fastify: "5.x" });

/** Runs one call and writes its audit line before answering; an unwritable audit log answers 500. */
async function handleRun(body: unknown, reply: FastifyReply, context: SidecarContext): Promise<FastifyReply> {
  const started = performance.now();
  const parsed = parseRunBody(body);
  if (!parsed.ok) {
    const record = failedCallAuditRecord(wellFormedOp(body), "invalid_body", elapsedMs(started));
    return auditedAnswer(reply, context.audit, record, 400, httpErrorBody("invalid_body", INVALID_BODY_MESSAGE, parsed.issues));
  }
  const facts: RunFacts = initialFacts(parsed.value, context.auditKey);
  const auditId = randomUUID();
  let outcome;
  let sent = false;
  // A write's `started` line is in the file and flushed before anything is sent; if it cannot be, nothing is.
  const beforeWrite = async (known: RunFacts) => {
    try {
      await context.audit.append(startedAuditRecord(auditId, known, elapsedMs(started)), { durable: true });
    } catch (error) {
      throw new AuditUnavailableError(error);
    }
    sent = true;
  };
  // The same snapshot runContext takes (synchronously, just below): the receipt names the registry that ran the write.
  const snapshot = context.live.current();
  try {
    outcome = await runFlow(parsed.value, facts, runContext(context), beforeWrite);
  } catch (error) {
    if (error instanceof AuditUnavailableError) {
      reply.log.error({ err: error.cause }, "audit log write failed before a write: nothing was sent");
      return reply.code(500).send(httpErrorBody("audit_unavailable", "the audit log could not be written, so the write was not sent"));
    }
    reply.log.error({ err: error }, "run failed inside the sidecar");
    const record = failedCallAuditRecord(facts.op, "internal_error", elapsedMs(started), facts);
    return auditedAnswer(reply, context.audit, record, 500, httpErrorBody("internal_error", "the sidecar failed to run this call"));
  }
  const answer = sent ? receiptedAnswer(outcome.answer, parsed.value, facts, auditId, snapshot, context) : outcome.answer;
  if (outcome.consumed !== undefined) await storeOutcome(outcome.consumed, answer, context, reply);
  // An executor envelope goes out as the JSON text the executor already measured (a receipted one is a new object).
  const durable = facts.access === "write" && answer.status !== "confirmation_required";
  return auditedAnswer(reply, context.audit, runAuditRecord(auditId, facts, answer, elapsedMs(started)), 200, serializeEnvelope(answer), durable);
}

/**
 * Keeps a confirmed write's answer (receipt included) for the same call sent
 * again. A store that cannot take it is logged, not answered: the write ran, and
 * the bot gets its outcome now; the same call again then answers "in progress".
 */
async function storeOutcome(consumed: ConsumedConfirmation, answer: RunAnswer, context: SidecarContext, reply: FastifyReply): Promise<void> {
  try {
    await context.state.storeOutcome(consumed.member, consumed.key, consumed.argsDigest, consumed.exp, serializeEnvelope(answer));
  } catch (error) {
    // The name only: a Redis error's message can name its URL.
    reply.log.error(
      { kind: error instanceof Error ? error.name : "unknown" },
      "the outcome of a write could not be stored: the same call again cannot answer it",
    );
  }
}

/** A write that was sent answers with its receipt (`withReceipt` decides whether it ran). */
function receiptedAnswer(answer: RunAnswer, body: RunBody, facts: RunFacts, auditId: string, snapshot: RegistrySnapshot, context: SidecarContext): RunAnswer {
  const manifestHash = facts.integration === null ? undefined : snapshot.registry.manifestHash(facts.integration);
  if (body.confirmation === undefined || facts.gid === null || facts.integration === null || manifestHash === undefined) return answer;
  return withReceipt(answer, {
    confirmation: body.confirmation,
    gid: facts.gid,
    integration: facts.integration,
    op: facts.op,
    manifest_hash: manifestHash,
    registry_hash: snapshot.info.hash,
    audit_id: auditId,
    keys: context.receiptKeys(),
  });
}

/** The `started` line of a write could not be written. */
class AuditUnavailableError extends Error {
  constructor(cause: unknown) {
    super("the audit log could not be written", { cause });
    this.name = "AuditUnavailableError";
  }
}
