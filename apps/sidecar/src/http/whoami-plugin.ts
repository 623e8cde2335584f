import { randomUUID } from "node:crypto";
import { performance } from "node:perf_hooks";
import type { FastifyInstance } from "fastify";
import fastifyPlugin from "fastify-plugin";
import { parseBody, whoamiBodySchema } from "@eleven-integrations/sidecar-protocol";
import { failedCallAuditRecord, runAuditRecord } from "../audit/audit-record.js";
import { initialFacts } from "../run/run-flow.js";
import { whoamiFlow } from "../run/whoami-flow.js";
import { auditedAnswer } from "./audited-answer.js";
import { elapsedMs, runContext, SIDECAR_CONTEXT } from "./context.js";
import { httpErrorBody, INVALID_BODY_MESSAGE } from "./http-error.js";

/** `POST /v1/whoami { grant }`: which account the grant's credential acts as, asked of the provider now; audited like a read. */
async function whoamiRoutes(app: FastifyInstance): Promise<void> {
  const { sidecar } = app;
  app.post("/v1/whoami", async (request, reply) => {
    const started = performance.now();
    const parsed = parseBody(whoamiBodySchema, request.body);
    if (!parsed.ok) {
      return auditedAnswer(
        reply,
        sidecar.audit,
        failedCallAuditRecord(null, "invalid_body", elapsedMs(started)),
        400,
        httpErrorBody("invalid_body", INVALID_BODY_MESSAGE, parsed.issues),
      );
    }
    const facts = initialFacts({ grant: parsed.value.grant, op: "" }, sidecar.auditKey);
    const work = whoamiFlow(parsed.value, facts, runContext(sidecar));
    sidecar.inFlight.add(work);
    try {
      const outcome = await work;
      return await auditedAnswer(reply, sidecar.audit, runAuditRecord(randomUUID(), outcome.facts, outcome.audited, elapsedMs(started)), 200, outcome.answer);
    } finally {
      sidecar.inFlight.delete(work);
    }
  });
}

export const whoamiPlugin = fastifyPlugin(whoamiRoutes, { name: "whoami", dependencies: [SIDECAR_CONTEXT], encapsulate: true, fastify: "5.x" });
