import { describe, expect, it } from "vitest";
import { startTracing, tracingRequested } from "./tracing.js";

describe("tracingRequested", () => {
  it("is off without the standard variables, so only the no-op API is loaded", async () => {
    expect(tracingRequested({})).toBe(false);
    expect(tracingRequested({ OTEL_EXPORTER_OTLP_ENDPOINT: " " })).toBe(false);
    expect(await startTracing({}, "eleven-server")).toBeUndefined();
  });

  it("is on for OTEL_TRACES_EXPORTER=otlp or an OTLP endpoint", () => {
    expect(tracingRequested({ OTEL_TRACES_EXPORTER: "otlp" })).toBe(true);
    expect(tracingRequested({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:4318" })).toBe(true);
    expect(tracingRequested({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://127.0.0.1:4318/v1/traces" })).toBe(true);
  });

  it("stays off when OTEL_SDK_DISABLED=true or OTEL_TRACES_EXPORTER=none", () => {
    expect(tracingRequested({ OTEL_SDK_DISABLED: "true", OTEL_TRACES_EXPORTER: "otlp" })).toBe(false);
    expect(tracingRequested({ OTEL_TRACES_EXPORTER: "none", OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:4318" })).toBe(false);
  });
});
