import { performance } from "node:perf_hooks";
import type { FastifyInstance } from "fastify";
import fastifyPlugin from "fastify-plugin";
import { revocationAuditRecord } from "../audit/audit-record.js";
import { parseBody, revokeBodySchema } from "@eleven-integrations/sidecar-protocol";
import { revokeGrant } from "../state/revoke.js";
import { auditedAnswer } from "./audited-answer.js";
import { elapsedMs } from "../call/call.js";
import { SIDECAR_CONTEXT } from "./context.js";
import { httpErrorBody, INVALID_BODY_MESSAGE } from "./http-error.js";

/** `POST /v1/revoke { revocation }`: records a member's revocation, with its own flushed audit line. */
async function revokeRoutes(app: FastifyInstance): Promise<void> {
  const { sidecar } = app;
  app.post("/v1/revoke", async (request, reply) => {
    const parsed = parseBody(revokeBodySchema, request.body);
    if (!parsed.ok) return reply.code(400).send(httpErrorBody("invalid_body", INVALID_BODY_MESSAGE, parsed.issues));
    const started = performance.now();
    const answered = await revokeGrant(parsed.value, sidecar, request.log);
    // A recorded revocation gets its own flushed audit line: who ended which grant, and when.
    if (answered.status === "ok") {
      const record = revocationAuditRecord(answered, answered.member, answered.integration, elapsedMs(started));
      return auditedAnswer(reply, sidecar.audit, record, 200, answered, true);
    }
    return answered;
  });
}

export const revokePlugin = fastifyPlugin(revokeRoutes, { name: "revoke", dependencies: [SIDECAR_CONTEXT], encapsulate: true, fastify: "5.x" });
