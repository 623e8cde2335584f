import { readdirSync, readFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { brokerEnvironmentSchema } from "./environment-schema.js";
import { brokerFileSchema } from "./environment-config.js";

/** The app's `src` folder, wherever in it this test lives. */
function sourceRoot(): string {
  let dir = fileURLToPath(new URL("..", import.meta.url));
  while (basename(dir) !== "src") dir = dirname(dir);
  return dir;
}
const source = sourceRoot();

/** Every environment variable the broker's source reads: `environment.X`, `env["X"]`, `process.env.X`, and names listed as strings. */
function variablesRead(dir: string): Set<string> {
  const names = new Set<string>();
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !entry.name.endsWith(".ts") || entry.name.endsWith(".test.ts") || entry.parentPath.includes("__fixtures__")) continue;
    const text = readFileSync(join(entry.parentPath, entry.name), "utf8");
    for (const match of text.matchAll(/\b(?:environment|env|process\.env)(?:\.|\[["'])([A-Z][A-Z0-9_]*)/g)) names.add(match[1]!);
    for (const match of text.matchAll(/["'](BROKER_[A-Z0-9_]+)["']/g)) names.add(match[1]!);
  }
  return names;
}

describe("the broker's environment schema (the source of docs/operating.md's table)", () => {
  it("declares exactly the variables the broker reads", () => {
    expect([...variablesRead(source)].sort()).toEqual(Object.keys(brokerEnvironmentSchema.shape).sort());
  });

  it("describes every variable, and every config-file key it names exists in the file schema", () => {
    for (const [name, field] of Object.entries(brokerEnvironmentSchema.shape)) {
      const meta = field.meta() as { description?: string; file?: string } | undefined;
      expect(meta?.description, name).toMatch(/\S/);
      if (meta?.file !== undefined) expect(Object.keys(brokerFileSchema.shape), name).toContain(meta.file);
    }
  });

  it("accepts what the broker accepts and refuses a malformed port or log level", () => {
    expect(brokerEnvironmentSchema.safeParse({ PORT: "8080", BROKER_LOG_LEVEL: "warn", UNRELATED: "x" }).success).toBe(true);
    expect(brokerEnvironmentSchema.safeParse({ PORT: "eighty" }).success).toBe(false);
    expect(brokerEnvironmentSchema.safeParse({ BROKER_LOG_LEVEL: "loud" }).success).toBe(false);
  });
});
