import type { FastifyInstance } from "fastify";
import fastifyPlugin from "fastify-plugin";

export interface HealthOptions {
  /** Why the broker is not ready; empty when it is. */
  reasons: () => string[];
}

/**
 * `GET /readyz` (200 `{ status: "ready" }`, or 503 `{ status: "not_ready", reasons }`) on the
 * public listener, for a load balancer (`GET /healthz` is the catalog plugin's); the metrics
 * listener answers both too.
 */
async function healthRoutes(app: FastifyInstance, options: HealthOptions): Promise<void> {
  app.get("/readyz", async (_request, reply) => {
    const reasons = options.reasons();
    reply.header("cache-control", "no-store");
    return reasons.length === 0 ? reply.send({ status: "ready" }) : reply.code(503).send({ status: "not_ready", reasons });
  });
}

export const healthPlugin = fastifyPlugin(healthRoutes, { name: "broker-readiness" });
