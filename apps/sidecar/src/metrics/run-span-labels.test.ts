// Third review, finding 8, for traces: a span's attributes are the metric labels' values, so
// a bot's made-up op ids and integrations reach a trace backend as `unknown`, never as given.
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from "@opentelemetry/sdk-trace";
import { describe, expect, it } from "vitest";
import { registry } from "../__fixtures__/grant-kit.js";
import type { AuditRecord } from "../audit/audit-log.js";
import { MetricLabels } from "./metric-labels.js";
import { recordRunSpan } from "./run-span.js";

function run(integration: string | null, op: string | null, code: string | null): AuditRecord {
  return {
    time: "",
    audit_id: "a",
    gid: null,
    member: null,
    integration,
    op,
    access: null,
    args_digest: null,
    account: null,
    status: code === null ? "ok" : "error",
    code,
    http_status: null,
    duration_ms: 2,
  };
}

describe("eleven.run span attributes", () => {
  it("take integration and op ids from the running registry and codes from the closed list, anything else as unknown", async () => {
    const exporter = new InMemorySpanExporter();
    const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
    const tracer = provider.getTracer("test");
    const labels = new MetricLabels(() => registry);
    recordRunSpan(tracer, run("github", "repos.list", null), labels);
    recordRunSpan(tracer, run("github", "repos.made_up_1", "unknown_op"), labels);
    recordRunSpan(tracer, run("made-up-integration", "things.list", "made_up_code"), labels);
    await provider.forceFlush();
    expect(exporter.getFinishedSpans().map((span) => span.attributes)).toEqual([
      { "eleven.integration": "github", "eleven.op": "repos.list", "eleven.status": "ok", "eleven.code": "none" },
      { "eleven.integration": "github", "eleven.op": "unknown", "eleven.status": "error", "eleven.code": "unknown_op" },
      { "eleven.integration": "unknown", "eleven.op": "unknown", "eleven.status": "error", "eleven.code": "unknown" },
    ]);
    await provider.shutdown();
  });
});
