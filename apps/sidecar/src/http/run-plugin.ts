import { performance } from "node:perf_hooks";
import type { FastifyInstance } from "fastify";
import fastifyPlugin from "fastify-plugin";
import { parseRunBody, wellFormedOp } from "@eleven-integrations/sidecar-protocol";
import { runCall } from "../call/flows.js";
import { settleInvalidBody } from "../call/settle.js";
import { sendResult } from "./audited-answer.js";
import { SIDECAR_CONTEXT } from "./context.js";
import { INVALID_BODY_MESSAGE } from "./http-error.js";

/** `POST /v1/run { grant, op, args?, confirmation?, page? }`: parses the body, runs the call, answers what it settled. */
async function runRoutes(app: FastifyInstance): Promise<void> {
  const { sidecar } = app;
  app.post("/v1/run", async (request, reply) => {
    const started = performance.now();
    const parsed = parseRunBody(request.body);
    if (!parsed.ok)
      return sendResult(reply, await settleInvalidBody(sidecar.audit, reply.log, wellFormedOp(request.body), started, parsed.issues, INVALID_BODY_MESSAGE));
    // The registry running now: the call finishes on it, and its receipt names it.
    return sendResult(reply, await runCall(parsed.value, sidecar.live.current(), sidecar, reply.log));
  });
}

export const runPlugin = fastifyPlugin(runRoutes, { name: "run", dependencies: [SIDECAR_CONTEXT], encapsulate: true, fastify: "5.x" });
