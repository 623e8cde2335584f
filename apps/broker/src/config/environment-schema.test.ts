import { describe, expect, it } from "vitest";
import { brokerEnvironmentSchema, parseEnvironment } from "./environment-schema.js";
import { brokerFileSchema } from "./server-config.js";

const KEY = `${"A".repeat(42)}A`;

describe("the broker's environment schema (what loadServerConfig parses, and the source of docs/operating.md's table)", () => {
  it("describes every variable, and every config-file key it names exists in the file schema", () => {
    for (const [name, field] of Object.entries(brokerEnvironmentSchema.shape)) {
      const meta = field.meta() as { description?: string; file?: string } | undefined;
      expect(meta?.description, name).toMatch(/\S/);
      if (meta?.file !== undefined) expect(Object.keys(brokerFileSchema.shape), name).toContain(meta.file);
    }
  });

  it("parses the variables into what the broker runs with: defaults, a numeric port, trimmed lists", () => {
    const parsed = parseEnvironment({ PORT: " 9000 ", BROKER_STATE_KEYS_OLD: " a , b ,", BROKER_RELEASE_KEYS: `${KEY},`, UNRELATED: "x" });
    expect(parsed.success && parsed.data).toMatchObject({
      HOST: "127.0.0.1",
      PORT: 9000,
      BROKER_LOG_LEVEL: "info",
      BROKER_STATE_KEYS_OLD: ["a", "b"],
      BROKER_RELEASE_KEYS: [KEY],
    });
    expect(parsed.success && "UNRELATED" in parsed.data).toBe(false);
  });

  it("takes a blank variable for an unset one", () => {
    const parsed = parseEnvironment({ PORT: "  ", BROKER_LOG_LEVEL: "", BROKER_CONFIG_FILE: " " });
    expect(parsed.success && parsed.data).toMatchObject({ PORT: 8080, BROKER_LOG_LEVEL: "info" });
    expect(parsed.success && parsed.data.BROKER_CONFIG_FILE).toBeUndefined();
  });

  it("refuses a malformed port, log level or release key, naming the variable and the entry", () => {
    const parsed = parseEnvironment({ PORT: "eighty", BROKER_LOG_LEVEL: "loud", BROKER_RELEASE_KEYS: `${KEY},not-a-key` });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((issue) => issue.path)).toEqual([["BROKER_RELEASE_KEYS", 1], ["PORT"], ["BROKER_LOG_LEVEL"]]);
    expect(parseEnvironment({ PORT: "65536" }).success).toBe(false);
    expect(parseEnvironment({ PORT: "65535" }).success).toBe(true);
  });
});
