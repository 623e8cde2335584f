import { SpanKind, SpanStatusCode, trace, type Tracer } from "@opentelemetry/api";
import type { AuditRecord, AuditSink } from "../audit/audit-log.js";
import type { MetricLabels } from "./metric-labels.js";

/** The span each answered `/v1/run` becomes. */
export const RUN_SPAN_NAME = "eleven.run";

/**
 * Records one span for a run from its outcome audit line (a write's `started` line is not an
 * outcome), timed by the run's duration. Attributes are names the sidecar chose: the
 * integration, op, status and error code; never an arg value, token or key.
 */
export function recordRunSpan(tracer: Tracer, record: AuditRecord, labels?: MetricLabels): void {
  if (record.status !== "ok" && record.status !== "error" && record.status !== "confirmation_required") return;
  const end = Date.now();
  // Like the metric labels: the registry's ids and closed lists, so a caller cannot invent attribute values.
  const named = labels?.run(record) ?? {
    integration: record.integration ?? "none",
    op: record.integration === null ? "none" : (record.op ?? "none"),
    status: record.status,
    code: record.code ?? "none",
  };
  const span = tracer.startSpan(RUN_SPAN_NAME, {
    kind: SpanKind.SERVER,
    startTime: end - record.duration_ms,
    attributes: {
      "eleven.integration": named.integration,
      "eleven.op": named.op,
      "eleven.status": named.status,
      "eleven.code": named.code,
    },
  });
  if (record.status === "error") span.setStatus({ code: SpanStatusCode.ERROR });
  span.end(end);
}

/** An audit sink that records a run's span once its line is written, where runs are counted. */
export function tracingAuditSink(audit: AuditSink, tracer: Tracer = trace.getTracer("@eleven-integrations/sidecar"), labels?: MetricLabels): AuditSink {
  // `.then`, not an async wrapper: this is on every run's path, and the line's own promise is enough.
  return { append: (record, options) => audit.append(record, options).then(() => recordRunSpan(tracer, record, labels)) };
}
