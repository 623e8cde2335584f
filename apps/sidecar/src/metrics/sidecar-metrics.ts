import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";
import type { Registry as ManifestRegistry } from "@eleven-integrations/loader";
import type { AuditRecord } from "../audit/audit-log.js";
import { MetricLabels } from "./metric-labels.js";

/**
 * prom-client's default `nodejs_active_{handles,requests,resources}_total` are gauges
 * named like counters, which `promtool check metrics` refuses (prometheus/client_js#283):
 * they are left out of the exposition.
 */
const REFUSED_DEFAULTS = /^nodejs_active_(handles|requests|resources)_total$/;

/**
 * Labels are only names the sidecar chose (integration, op, status, code, route): never a token,
 * arg or member key, and never a value a caller made up (`MetricLabels`: the running registry's
 * ids and closed lists, anything else `unknown`).
 */
export interface RunLabels {
  integration: string;
  op: string;
  status: string;
  code: string;
}

/** The sidecar's Prometheus metrics, one registry per sidecar (so two sidecars in one process do not mix). */
export class SidecarMetrics {
  readonly registry = new Registry();
  readonly #runs = new Counter({
    name: "eleven_sidecar_runs_total",
    help: "Runs answered, by integration, op, status (ok, error, confirmation_required) and error code (none for ok).",
    labelNames: ["integration", "op", "status", "code"],
    registers: [this.registry],
  });
  readonly #runSeconds = new Histogram({
    name: "eleven_sidecar_run_duration_seconds",
    help: "Time from a run's request to its audited answer, by integration and op.",
    labelNames: ["integration", "op"],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [this.registry],
  });
  readonly #providerSeconds = new Histogram({
    name: "eleven_sidecar_provider_duration_seconds",
    help: "Time of runs that reached the provider (an upstream HTTP status came back), by integration and op.",
    labelNames: ["integration", "op"],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [this.registry],
  });
  readonly #requests = new Counter({
    name: "eleven_sidecar_http_requests_total",
    help: "Requests answered on the main listener, by route pattern (never the raw URL), method and HTTP status.",
    labelNames: ["route", "method", "status"],
    registers: [this.registry],
  });
  readonly #sequence = new Gauge({
    name: "eleven_sidecar_registry_sequence",
    help: "Sequence of the registry release running (0: the embedded registry).",
    registers: [this.registry],
  });
  readonly #syncFailures = new Counter({
    name: "eleven_sidecar_registry_sync_failures_total",
    help: "Registry syncs refused, by reason.",
    labelNames: ["reason"],
    registers: [this.registry],
  });
  readonly #redisUp = new Gauge({
    name: "eleven_sidecar_redis_up",
    help: "1 while Redis accepts commands, 0 when it does not; absent without REDIS_URL.",
    registers: [this.registry],
  });

  #refresh: (() => void) | undefined;
  #labels = new MetricLabels();

  constructor() {
    collectDefaultMetrics({ register: this.registry });
    for (const metric of this.registry.getMetricsAsArray()) {
      if (REFUSED_DEFAULTS.test(metric.name)) this.registry.removeSingleMetric(metric.name);
    }
  }

  /** Counts a run from its outcome audit line (a write's `started` line is not an outcome). */
  recordRun(record: AuditRecord): void {
    if (record.status !== "ok" && record.status !== "error" && record.status !== "confirmation_required") return;
    const labels = this.#labels.run(record);
    const { integration, op } = labels;
    this.#runs.inc(labels);
    const seconds = record.duration_ms / 1000;
    this.#runSeconds.observe({ integration, op }, seconds);
    if (record.http_status !== null) this.#providerSeconds.observe({ integration, op }, seconds);
  }

  /** `route` is the matched route's pattern, undefined when none matched. */
  recordRequest(route: string | undefined, method: string, status: number): void {
    this.#requests.inc(this.#labels.request(route, method, status));
  }

  /** Integration and op labels are the ids of the registry `registry` returns at the time (the running one, as releases come). */
  labelsFrom(registry: () => ManifestRegistry): void {
    this.#labels = new MetricLabels(registry);
  }

  setRegistrySequence(sequence: number): void {
    this.#sequence.set(sequence);
  }

  recordSyncFailure(reason: string): void {
    this.#syncFailures.inc({ reason });
  }

  setRedisUp(up: boolean): void {
    this.#redisUp.set(up ? 1 : 0);
  }

  /** `refresh` runs before each scrape: gauges that are read, not counted (registry sequence, Redis up). */
  beforeScrape(refresh: () => void): void {
    this.#refresh = refresh;
  }

  exposition(): Promise<string> {
    this.#refresh?.();
    return this.registry.metrics();
  }
}
