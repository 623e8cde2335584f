import { generateBotKeys, ready } from "@eleven-integrations/grants";
import { trace } from "@opentelemetry/api";
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from "@opentelemetry/sdk-trace";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { mockTokenEndpoint } from "../__fixtures__/mock-token-endpoint.js";
import { testApp } from "../__fixtures__/test-app.js";
import { AUTH_ORIGIN, RETURN_TO } from "../__fixtures__/test-registry.js";
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

  it("is recorded by the app's connect hook: a denied callback becomes one span with no state in it", async () => {
    await ready();
    const { app } = testApp({ dispatcher: mockTokenEndpoint().agent });
    try {
      const client = generateBotKeys();
      const start = await app.inject({
        method: "GET",
        url: `/connect/testauth/start?client_key=${client.publicKey}&return_to=${encodeURIComponent(RETURN_TO)}`,
      });
      const state = new URL(start.headers.location as string).searchParams.get("state") as string;
      const cookie = String(start.headers["set-cookie"]).split(";")[0] as string;
      const denied = await app.inject({
        method: "GET",
        url: `/connect/callback?${new URLSearchParams({ error: "access_denied", state, iss: AUTH_ORIGIN })}`,
        headers: { accept: "application/json", cookie },
      });
      expect(denied.headers.location).toBe(`${RETURN_TO}#error=access_denied`);
      const spans = exporter.getFinishedSpans();
      expect(spans.map((span) => [span.name, span.attributes])).toEqual([
        [CONNECT_SPAN_NAME, { "eleven.integration": "testauth", "eleven.outcome": "access_denied" }],
      ]);
      expect(JSON.stringify(spans.map((span) => span.attributes))).not.toContain(state);
    } finally {
      await app.close();
    }
  });
});
