import { SpanKind, SpanStatusCode, trace, type Tracer } from "@opentelemetry/api";
import type { AuditRecord, AuditSink } from "../audit/audit-log.js";

/** The span each answered `/v1/run` becomes. */
export const RUN_SPAN_NAME = "eleven.run";

/**
 * Records one span for a run from its outcome audit line (a write's `started` line is not an
 * outcome), timed by the run's duration. Attributes are names the sidecar chose: the
 * integration, op, status and error code; never an arg value, token or key.
 */
export function recordRunSpan(tracer: Tracer, record: AuditRecord): void {
  if (record.status !== "ok" && record.status !== "error" && record.status !== "confirmation_required") return;
  const end = Date.now();
  const span = tracer.startSpan(RUN_SPAN_NAME, {
    kind: SpanKind.SERVER,
    startTime: end - record.duration_ms,
    attributes: {
      "eleven.integration": record.integration ?? "none",
      // Only an op of an integration the registry knew: a caller cannot invent attribute values.
      "eleven.op": record.integration === null ? "none" : (record.op ?? "none"),
      "eleven.status": record.status,
      "eleven.code": record.code ?? "none",
    },
  });
  if (record.status === "error") span.setStatus({ code: SpanStatusCode.ERROR });
  span.end(end);
}

/** An audit sink that records a run's span once its line is written, where runs are counted. */
export function tracingAuditSink(audit: AuditSink, tracer: Tracer = trace.getTracer("@eleven-integrations/sidecar")): AuditSink {
  // `.then`, not an async wrapper: this is on every run's path, and the line's own promise is enough.
  return { append: (record, options) => audit.append(record, options).then(() => recordRunSpan(tracer, record)) };
}
