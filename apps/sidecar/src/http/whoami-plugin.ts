import { performance } from "node:perf_hooks";
import type { FastifyInstance } from "fastify";
import fastifyPlugin from "fastify-plugin";
import { parseBody, whoamiBodySchema } from "@eleven-integrations/sidecar-protocol";
import { whoamiCall } from "../call/flows.js";
import { settleInvalidBody } from "../call/settle.js";
import { sendResult } from "./audited-answer.js";
import { SIDECAR_CONTEXT } from "./context.js";
import { INVALID_BODY_MESSAGE } from "./http-error.js";

/** `POST /v1/whoami { grant }`: which account the grant's credential acts as, asked of the provider now; audited like a read. */
async function whoamiRoutes(app: FastifyInstance): Promise<void> {
  const { sidecar } = app;
  app.post("/v1/whoami", async (request, reply) => {
    const started = performance.now();
    const parsed = parseBody(whoamiBodySchema, request.body);
    if (!parsed.ok) return sendResult(reply, await settleInvalidBody(sidecar.audit, reply.log, null, started, parsed.issues, INVALID_BODY_MESSAGE));
    return sendResult(reply, await whoamiCall(parsed.value, sidecar.live.current(), sidecar, reply.log));
  });
}

export const whoamiPlugin = fastifyPlugin(whoamiRoutes, { name: "whoami", dependencies: [SIDECAR_CONTEXT], encapsulate: true, fastify: "5.x" });
