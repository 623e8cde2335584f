import type { FastifyInstance } from "fastify";
import type { AuditSink } from "../audit/audit-log.js";
import { Readiness } from "./readiness.js";
import { SidecarMetrics } from "./sidecar-metrics.js";

/** One sidecar's metrics and readiness, shared by its main app and its metrics listener. */
export interface SidecarObservability {
  metrics: SidecarMetrics;
  readiness: Readiness;
}

export function createObservability(): SidecarObservability {
  return { metrics: new SidecarMetrics(), readiness: new Readiness() };
}

/** An audit sink that counts each run once its line is written (a line that failed to write is no answered run). */
export function countingAuditSink(audit: AuditSink, metrics: SidecarMetrics): AuditSink {
  return { append: (record, options) => audit.append(record, options).then(() => metrics.recordRun(record)) };
}

/** Counts every answer of the main listener by its route pattern (`/v1/run`), never the raw URL; unmatched URLs count as `unmatched`. */
export function countRequests(app: FastifyInstance, metrics: SidecarMetrics): void {
  app.addHook("onResponse", (request, reply, done) => {
    metrics.recordRequest(request.routeOptions.url, request.method, reply.statusCode);
    done();
  });
}
