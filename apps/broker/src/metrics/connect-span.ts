import { SpanKind, SpanStatusCode, trace, type Tracer } from "@opentelemetry/api";
import type { ConnectEvent } from "../connect/connect-event.js";

/** The span each finished connect callback becomes. */
export const CONNECT_SPAN_NAME = "eleven.connect";

/**
 * Records one span for a connect's outcome: the integration and `ok` or the error code,
 * names the broker chose; never a token, code, state or key.
 */
export function recordConnectSpan(event: ConnectEvent, tracer: Tracer = trace.getTracer("@eleven-integrations/broker")): void {
  const span = tracer.startSpan(CONNECT_SPAN_NAME, {
    kind: SpanKind.SERVER,
    attributes: { "eleven.integration": event.integration, "eleven.outcome": event.outcome.ok ? "ok" : event.outcome.code },
  });
  if (!event.outcome.ok) span.setStatus({ code: SpanStatusCode.ERROR });
  span.end();
}
