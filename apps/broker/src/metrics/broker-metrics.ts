import type { FastifyInstance } from "fastify";
import Fastify from "fastify";
import { Counter, Gauge, Registry, collectDefaultMetrics } from "prom-client";
import type { ConnectEvent } from "../connect/connect-event.js";
import type { WebhookReport } from "../events/webhook-outcome.js";

/** Gauges named like counters that `promtool check metrics` refuses (prometheus/client_js#283): left out. */
const REFUSED_DEFAULTS = /^nodejs_active_(handles|requests|resources)_total$/;
const REFRESH_ROUTE = "/connect/:id/refresh";

/**
 * The broker's Prometheus metrics. Labels are names the broker chose (integration ids the
 * registry knows, outcome codes, route patterns, statuses): never a token, code, state or key.
 */
export class BrokerMetrics {
  readonly registry = new Registry();
  readonly #connects = new Counter({
    name: "eleven_broker_connects_total",
    help: "Connect callbacks finished, by integration and outcome (ok, or the error code).",
    labelNames: ["integration", "outcome"],
    registers: [this.registry],
  });
  readonly #refreshes = new Counter({
    name: "eleven_broker_refreshes_total",
    help: "POST /connect/:id/refresh answers, by integration and HTTP status.",
    labelNames: ["integration", "status"],
    registers: [this.registry],
  });
  readonly #requests = new Counter({
    name: "eleven_broker_http_requests_total",
    help: "Requests answered, by route pattern (never the raw URL), method and HTTP status.",
    labelNames: ["route", "method", "status"],
    registers: [this.registry],
  });
  readonly #webhooks = new Counter({
    name: "eleven_broker_webhooks_total",
    help: "Provider posts to /hooks/:integration, by integration (a registry id or unknown) and outcome (stored, duplicate, unrouted, handshake, or the refusal's reason).",
    labelNames: ["integration", "outcome"],
    registers: [this.registry],
  });
  readonly #sequence = new Gauge({
    name: "eleven_broker_registry_sequence",
    help: "Sequence of the signed release served (0: no release, the manifests alone).",
    registers: [this.registry],
  });
  readonly #redisUp = new Gauge({
    name: "eleven_broker_redis_up",
    help: "1 while Redis accepts commands, 0 when not; absent without Redis.",
    registers: [this.registry],
  });
  #refresh: (() => void) | undefined;

  constructor() {
    collectDefaultMetrics({ register: this.registry });
    for (const metric of this.registry.getMetricsAsArray()) if (REFUSED_DEFAULTS.test(metric.name)) this.registry.removeSingleMetric(metric.name);
  }

  recordConnect(event: ConnectEvent): void {
    this.#connects.inc({ integration: event.integration, outcome: event.outcome.ok ? "ok" : event.outcome.code });
  }

  recordWebhook(report: WebhookReport): void {
    this.#webhooks.inc({ integration: report.integration, outcome: report.outcome });
  }

  /** Counts every answer by route pattern, and refreshes by integration (only an id the registry knows; else `unknown`). */
  countRequests(app: FastifyInstance, knownIntegration: (id: string) => boolean): void {
    app.addHook("onResponse", (request, reply, done) => {
      const route = request.routeOptions.url ?? "unmatched";
      this.#requests.inc({ route, method: request.method, status: String(reply.statusCode) });
      if (route === REFRESH_ROUTE) {
        const id = (request.params as { id?: unknown }).id;
        this.#refreshes.inc({ integration: typeof id === "string" && knownIntegration(id) ? id : "unknown", status: String(reply.statusCode) });
      }
      done();
    });
  }

  beforeScrape(refresh: () => void): void {
    this.#refresh = refresh;
  }

  setRegistrySequence(sequence: number): void {
    this.#sequence.set(sequence);
  }

  setRedisUp(up: boolean): void {
    this.#redisUp.set(up ? 1 : 0);
  }

  exposition(): Promise<string> {
    this.#refresh?.();
    return this.registry.metrics();
  }
}

/** What `GET /readyz` reports: empty when ready. */
export type ReadinessReasons = () => string[];

/** The broker's metrics and readiness, fed by `buildApp` and served by the metrics listener. */
export interface BrokerObservability {
  metrics: BrokerMetrics;
  /** Set by `buildApp`; until then the broker is `starting`. */
  reasons: ReadinessReasons;
  /** Closes the metrics listener; `buildApp` calls it once the public listener has drained, so the probes see the broker go. */
  stop: () => Promise<void>;
}

export function createBrokerObservability(): BrokerObservability {
  return { metrics: new BrokerMetrics(), reasons: () => ["starting"], stop: async () => undefined };
}

/** `/metrics`, `/healthz` and `/readyz` on 127.0.0.1:`port` only (0 picks a free port). */
export async function startBrokerMetricsServer(observability: BrokerObservability, port: number): Promise<{ app: FastifyInstance; port: number }> {
  const app = Fastify({ logger: false });
  app.get("/metrics", async (_request, reply) => reply.type(observability.metrics.registry.contentType).send(await observability.metrics.exposition()));
  app.get("/healthz", async () => ({ status: "ok" }));
  app.get("/readyz", async (_request, reply) => {
    const reasons = observability.reasons();
    return reply.code(reasons.length === 0 ? 200 : 503).send(reasons.length === 0 ? { status: "ready" } : { status: "not_ready", reasons });
  });
  await app.listen({ host: "127.0.0.1", port });
  const address = app.server.address();
  return { app, port: typeof address === "object" && address !== null ? address.port : port };
}
