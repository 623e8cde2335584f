import { PROBE_PATHS, type HealthAnswer, type ReadyAnswer } from "@eleven-integrations/sidecar-protocol";
import type { FastifyInstance } from "fastify";
import fastifyPlugin from "fastify-plugin";
import { SIDECAR_CONTEXT } from "./context.js";

/**
 * `GET /healthz` and `GET /readyz` on the main listener, behind the caller token like
 * every route (the metrics listener serves the same probes without one).
 */
async function healthRoutes(app: FastifyInstance): Promise<void> {
  const { sidecar } = app;
  app.get(PROBE_PATHS.health, async (): Promise<HealthAnswer> => ({ status: "ok" }));
  app.get(PROBE_PATHS.ready, async (_request, reply): Promise<ReadyAnswer> => {
    const reasons = sidecar.readiness.reasons();
    if (reasons.length === 0) return { status: "ready" };
    reply.code(503);
    return { status: "not_ready", reasons: reasons as [string, ...string[]] };
  });
}

export const healthPlugin = fastifyPlugin(healthRoutes, { name: "health", dependencies: [SIDECAR_CONTEXT], encapsulate: true, fastify: "5.x" });
