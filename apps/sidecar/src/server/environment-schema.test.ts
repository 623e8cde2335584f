import { readdirSync, readFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { sidecarEnvironmentSchema } from "./environment-schema.js";

/** The app's `src` folder, wherever in it this test lives. */
function sourceRoot(): string {
  let dir = fileURLToPath(new URL("..", import.meta.url));
  while (basename(dir) !== "src") dir = dirname(dir);
  return dir;
}
const source = sourceRoot();

/** Every environment variable the sidecar's source reads: `environment["X"]`, `env.X`, `process.env.X`, and names passed as strings to helpers. */
function variablesRead(dir: string): Set<string> {
  const names = new Set<string>();
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !entry.name.endsWith(".ts") || entry.name.endsWith(".test.ts") || entry.parentPath.includes("__fixtures__")) continue;
    const text = readFileSync(join(entry.parentPath, entry.name), "utf8");
    for (const match of text.matchAll(/\b(?:environment|env|process\.env)(?:\.|\[["'])([A-Z][A-Z0-9_]*)/g)) names.add(match[1]!);
    for (const match of text.matchAll(/\(\s*environment\s*,\s*["']([A-Z][A-Z0-9_]*)["']/g)) names.add(match[1]!);
  }
  return names;
}

describe("the sidecar's environment schema (the source of docs/operating.md's table)", () => {
  it("declares exactly the variables the sidecar reads", () => {
    expect([...variablesRead(source)].sort()).toEqual(Object.keys(sidecarEnvironmentSchema.shape).sort());
  });

  it("describes every variable", () => {
    for (const [name, field] of Object.entries(sidecarEnvironmentSchema.shape)) {
      expect((field.meta() as { description?: string } | undefined)?.description, name).toMatch(/\S/);
    }
  });

  it("refuses a malformed port or log level", () => {
    expect(sidecarEnvironmentSchema.safeParse({ PORT: "8787", LOG_LEVEL: "debug" }).success).toBe(true);
    expect(sidecarEnvironmentSchema.safeParse({ PORT: "-1" }).success).toBe(false);
    expect(sidecarEnvironmentSchema.safeParse({ LOG_LEVEL: "chatty" }).success).toBe(false);
  });
});
