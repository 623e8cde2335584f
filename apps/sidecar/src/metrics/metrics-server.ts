import Fastify, { type FastifyInstance } from "fastify";
import type { SidecarMetrics } from "./sidecar-metrics.js";
import type { Readiness } from "./readiness.js";

/** The only address the metrics listener binds: Prometheus scrapes it from the same host (or through a sidecar proxy). */
export const METRICS_HOST = "127.0.0.1";

/**
 * A second listener, on loopback only, for Prometheus and the orchestrator's probes:
 * `GET /metrics` (text exposition), `GET /healthz` (alive) and `GET /readyz`. It
 * takes no caller token (it serves no grant, run or key), and the main listener never
 * serves `/metrics`.
 */
export async function startMetricsServer(metrics: SidecarMetrics, readiness: Readiness, port: number): Promise<{ app: FastifyInstance; port: number }> {
  const app = Fastify({ logger: false });
  app.get("/metrics", async (_request, reply) => {
    const text = await metrics.exposition();
    return reply.type(metrics.registry.contentType).send(text);
  });
  app.get("/healthz", async () => ({ status: "ok" }));
  app.get("/readyz", async (_request, reply) => {
    const reasons = readiness.reasons();
    return reply.code(reasons.length === 0 ? 200 : 503).send(reasons.length === 0 ? { status: "ready" } : { status: "not_ready", reasons });
  });
  await app.listen({ host: METRICS_HOST, port });
  const address = app.server.address();
  return { app, port: typeof address === "object" && address !== null ? address.port : port };
}
