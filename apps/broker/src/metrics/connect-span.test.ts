import { trace } from "@opentelemetry/api";
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from "@opentelemetry/sdk-trace";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { CONNECT_SPAN_NAME, recordConnectSpan } from "./connect-span.js";

const exporter = new InMemorySpanExporter();
const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
// The global provider, as the bin registers it: the default tracer must reach it.
trace.setGlobalTracerProvider(provider);

beforeEach(() => exporter.reset());
afterAll(async () => {
  await provider.shutdown();
  trace.disable();
});

describe("eleven.connect spans", () => {
  it("records a finished connect with its integration and outcome ok", () => {
    recordConnectSpan({ integration: "github", outcome: { ok: true, identified: true } });
    const spans = exporter.getFinishedSpans();
    expect(spans.map((span) => span.name)).toEqual([CONNECT_SPAN_NAME]);
    expect(spans[0]?.attributes).toEqual({ "eleven.integration": "github", "eleven.outcome": "ok" });
    expect(spans[0]?.status.code).toBe(0);
  });

  it("records a failed connect with its error code as the outcome, marked as an error", () => {
    recordConnectSpan({ integration: "slack", outcome: { ok: false, code: "token_exchange_failed" } });
    const spans = exporter.getFinishedSpans();
    expect(spans).toHaveLength(1);
    expect(spans[0]?.name).toBe("eleven.connect");
    expect(spans[0]?.attributes).toEqual({ "eleven.integration": "slack", "eleven.outcome": "token_exchange_failed" });
    expect(spans[0]?.status.code).toBe(2);
  });
});
