// Loaded by each app's bin alone: the OpenTelemetry SDK is imported only when the standard
// variables ask for traces, so a broker or sidecar without them runs on the no-op API.
import { trace } from "@opentelemetry/api";

/** The standard OpenTelemetry variables that decide whether traces are exported. */
export interface TracingEnvironment {
  OTEL_SDK_DISABLED?: string | undefined;
  OTEL_TRACES_EXPORTER?: string | undefined;
  OTEL_EXPORTER_OTLP_ENDPOINT?: string | undefined;
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?: string | undefined;
  OTEL_SERVICE_NAME?: string | undefined;
}

/** A registered tracer provider: `shutdown` flushes the spans still batched. */
export interface RunningTracing {
  shutdown(): Promise<void>;
}

function present(value: string | undefined): boolean {
  return value !== undefined && value.trim() !== "";
}

/** True when the environment asks for OTLP traces (and the SDK is not disabled). */
export function tracingRequested(env: TracingEnvironment): boolean {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === "true") return false;
  const exporters = (env.OTEL_TRACES_EXPORTER ?? "").split(",").map((name) => name.trim().toLowerCase());
  if (exporters.includes("none")) return false;
  return exporters.includes("otlp") || present(env.OTEL_EXPORTER_OTLP_ENDPOINT) || present(env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
}

/**
 * Registers a global tracer provider exporting OTLP over HTTP (JSON) through a batch
 * processor when the environment asks for it; else loads nothing and returns undefined.
 * The exporter reads its endpoint, headers and timeout from the standard variables.
 */
export async function startTracing(env: TracingEnvironment, defaultServiceName: string): Promise<RunningTracing | undefined> {
  if (!tracingRequested(env)) return undefined;
  const [{ BatchSpanProcessor, TracerProvider }, { OTLPTraceExporter }, { resourceFromAttributes }] = await Promise.all([
    import("@opentelemetry/sdk-trace"),
    import("@opentelemetry/exporter-trace-otlp-http"),
    import("@opentelemetry/resources"),
  ]);
  const serviceName = present(env.OTEL_SERVICE_NAME) ? (env.OTEL_SERVICE_NAME as string).trim() : defaultServiceName;
  const provider = new TracerProvider({
    resource: resourceFromAttributes({ "service.name": serviceName }),
    spanProcessors: [new BatchSpanProcessor({ exporter: new OTLPTraceExporter() })],
  });
  trace.setGlobalTracerProvider(provider);
  return { shutdown: () => provider.shutdown() };
}
