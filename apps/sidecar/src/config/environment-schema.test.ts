import { describe, expect, it } from "vitest";
import { parseEnvironment, sidecarEnvironmentSchema } from "./environment-schema.js";

describe("the sidecar's environment schema (what optionsFromEnvironment parses, and the source of docs/operating.md's table)", () => {
  it("describes every variable", () => {
    for (const [name, field] of Object.entries(sidecarEnvironmentSchema.shape)) {
      expect((field.meta() as { description?: string } | undefined)?.description, name).toMatch(/\S/);
    }
  });

  it("parses the variables into what the sidecar runs with", () => {
    const parsed = parseEnvironment({ PORT: "8787", LOG_LEVEL: "debug", RATE_LIMIT_GRANT: "10/60", UNRELATED: "x" });
    expect(parsed.success && parsed.data).toEqual({ PORT: 8787, LOG_LEVEL: "debug", RATE_LIMIT_GRANT: { points: 10, durationSeconds: 60 } });
    expect(parseEnvironment({}).success && parseEnvironment({}).data).toEqual({ LOG_LEVEL: "info" });
  });

  it("refuses a malformed port, log level or registry URL", () => {
    expect(parseEnvironment({ PORT: "-1" }).success).toBe(false);
    expect(parseEnvironment({ LOG_LEVEL: "chatty" }).success).toBe(false);
    expect(parseEnvironment({ SIDECAR_REGISTRY_URL: "ftp://broker.example.com" }).success).toBe(false);
  });
});
