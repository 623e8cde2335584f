import { randomUUID } from "node:crypto";
import { performance } from "node:perf_hooks";
import { serializeEnvelope } from "@eleven-integrations/executor";
import type { FastifyInstance, FastifyReply } from "fastify";
import type { AuditRecord, AuditSink } from "../audit/audit-log.js";
import { failedCallAuditRecord, revocationAuditRecord, runAuditRecord, startedAuditRecord } from "../audit/audit-record.js";
import { opsBodySchema, parseBody, revokeBodySchema, runBodySchema, wellFormedOp } from "../guards/body-schemas.js";
import { httpErrorBody } from "../guards/http-error.js";
import { opsPalette } from "../run/ops-palette.js";
import type { LiveRegistry } from "../registry/live-registry.js";
import { revokeGrant, type RevokeDeps } from "../state/revoke.js";
import { searchBodySchema } from "../search/search-body.js";
import { createSearch } from "../search/search-readiness.js";
import { initialFacts, runFlow, type RunFacts, type RunFlowContext } from "../run/run-flow.js";

export interface RouteDeps extends Omit<RunFlowContext, "registry" | "executor">, RevokeDeps {
  /** The bot's box public key, which `GET /v1/identity` publishes. */
  publicKey: string;
  /** The registry running now, and its executor: each request takes one snapshot and keeps it. */
  live: LiveRegistry;
  audit: AuditSink;
  /** Runs still being handled; shutdown waits for them before closing the audit log. */
  inFlight: Set<Promise<unknown>>;
}

const INVALID_BODY_MESSAGE = "the request body does not match this route's schema";

function elapsedMs(started: number): number {
  return Math.round((performance.now() - started) * 10) / 10;
}

/** `GET /v1/identity`, `POST /v1/ops`, `POST /v1/search` and `POST /v1/run`; the guards in front of them are hooks on the app. */
export function registerRoutes(app: FastifyInstance, deps: RouteDeps): void {
  app.get("/v1/identity", async () => ({ public_key: deps.publicKey, registry: deps.live.current().info }));

  app.post("/v1/ops", async (request, reply) => {
    const parsed = parseBody(opsBodySchema, request.body);
    if (!parsed.ok) return reply.code(400).send(httpErrorBody("invalid_body", INVALID_BODY_MESSAGE, parsed.issues));
    return await opsPalette(parsed.value, runContext(deps));
  });

  app.post("/v1/revoke", async (request, reply) => {
    const parsed = parseBody(revokeBodySchema, request.body);
    if (!parsed.ok) return reply.code(400).send(httpErrorBody("invalid_body", INVALID_BODY_MESSAGE, parsed.issues));
    const started = performance.now();
    const answered = await revokeGrant(parsed.value, deps, request.log);
    // A recorded revocation gets its own flushed audit line: who ended which grant, and when.
    if (answered.status === "ok") {
      const record = revocationAuditRecord(answered.gid, answered.member, answered.integration, elapsedMs(started));
      return answer(reply, deps, record, 200, answered, true);
    }
    return answered;
  });

  const search = createSearch();
  app.post("/v1/search", async (request, reply) => {
    const parsed = parseBody(searchBodySchema, request.body);
    if (!parsed.ok) return reply.code(400).send(httpErrorBody("invalid_body", INVALID_BODY_MESSAGE, parsed.issues));
    return search(parsed.value, runContext(deps));
  });

  app.post("/v1/run", async (request, reply) => {
    const work = handleRun(request.body, reply, deps);
    deps.inFlight.add(work);
    try {
      return await work;
    } finally {
      deps.inFlight.delete(work);
    }
  });
}

/** The route's dependencies bound to the registry running as the request starts: it finishes on that one. */
function runContext(deps: RouteDeps): RunFlowContext {
  const { registry, executor } = deps.live.current();
  return { registry, executor, openGrant: deps.openGrant, state: deps.state };
}

/** Runs one call and writes its audit line before answering; an unwritable audit log answers 500. */
async function handleRun(body: unknown, reply: FastifyReply, deps: RouteDeps): Promise<FastifyReply> {
  const started = performance.now();
  const parsed = parseBody(runBodySchema, body);
  if (!parsed.ok) {
    const record = failedCallAuditRecord(wellFormedOp(body), "invalid_body", elapsedMs(started));
    return answer(reply, deps, record, 400, httpErrorBody("invalid_body", INVALID_BODY_MESSAGE, parsed.issues));
  }
  const facts: RunFacts = initialFacts(parsed.value);
  const auditId = randomUUID();
  let outcome;
  // A write's `started` line is in the file and flushed before anything is sent; if it cannot be, nothing is.
  const beforeWrite = async (known: RunFacts) => {
    try {
      await deps.audit.append(startedAuditRecord(auditId, known, elapsedMs(started)), { durable: true });
    } catch (error) {
      throw new AuditUnavailableError(error);
    }
  };
  try {
    outcome = await runFlow(parsed.value, facts, runContext(deps), beforeWrite);
  } catch (error) {
    if (error instanceof AuditUnavailableError) {
      reply.log.error({ err: error.cause }, "audit log write failed before a write: nothing was sent");
      return reply.code(500).send(httpErrorBody("audit_unavailable", "the audit log could not be written, so the write was not sent"));
    }
    reply.log.error({ err: error }, "run failed inside the sidecar");
    const record = failedCallAuditRecord(facts.op, "internal_error", elapsedMs(started), facts);
    return answer(reply, deps, record, 500, httpErrorBody("internal_error", "the sidecar failed to run this call"));
  }
  // An executor envelope goes out as the JSON text the executor already measured.
  const durable = facts.access === "write" && outcome.answer.status !== "confirmation_required";
  return answer(reply, deps, runAuditRecord(auditId, facts, outcome.answer, elapsedMs(started)), 200, serializeEnvelope(outcome.answer), durable);
}

/** The `started` line of a write could not be written. */
class AuditUnavailableError extends Error {
  constructor(cause: unknown) {
    super("the audit log could not be written", { cause });
    this.name = "AuditUnavailableError";
  }
}

/** Writes the audit line, then answers `payload` (an object, or JSON text already serialised). */
async function answer(reply: FastifyReply, deps: RouteDeps, record: AuditRecord, statusCode: number, payload: object | string, durable = false): Promise<FastifyReply> {
  try {
    await deps.audit.append(record, { durable });
  } catch (error) {
    reply.log.error({ err: error }, "audit log write failed");
    return reply.code(500).send(httpErrorBody("audit_unavailable", "the audit log could not be written; nothing is answered without it"));
  }
  if (typeof payload === "string") reply.type("application/json; charset=utf-8");
  return reply.code(statusCode).send(payload);
}
