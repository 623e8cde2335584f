import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkPackage } from "./release-check.mjs";

const check = checkPackage as (dir: string, work: string) => string[];
let work: string;

function makePackage(name: string, packageJson: object, files: Record<string, string>): string {
  const dir = join(work, name);
  mkdirSync(join(dir, "dist"), { recursive: true });
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: `@check/${name}`, version: "1.0.0", license: "MIT", ...packageJson }));
  for (const [file, text] of Object.entries(files)) writeFileSync(join(dir, file), text);
  return dir;
}

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), "release-check-test-"));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("the release check (publint strict + attw esm-only on the packed tarball)", () => {
  it("passes a well-formed ESM package", () => {
    const dir = makePackage(
      "good",
      {
        type: "module",
        files: ["dist"],
        exports: { ".": { types: "./dist/index.d.ts", default: "./dist/index.js" }, "./package.json": "./package.json" },
      },
      { "dist/index.js": "export const one = 1;\n", "dist/index.d.ts": "export declare const one: 1;\n" },
    );
    expect(check(dir, work)).toEqual([]);
  }, 60_000);

  it("fails a package whose types are missing from the tarball and whose exports put types last (publint)", () => {
    const dir = makePackage(
      "broken",
      {
        type: "module",
        files: ["dist/index.js"],
        exports: { ".": { default: "./dist/index.js", types: "./dist/index.d.ts" } },
      },
      { "dist/index.js": "export const one = 1;\n", "dist/index.d.ts": "export declare const one: 1;\n" },
    );
    const problems = check(dir, work).join("\n");
    expect(problems).toContain("publint:");
    expect(problems).toMatch(/types/i);
  }, 60_000);

  it("fails a package that says it is ESM but ships CommonJS types for its entry", () => {
    const dir = makePackage(
      "false-cjs",
      {
        type: "module",
        files: ["dist"],
        exports: { ".": { types: "./dist/index.d.cts", default: "./dist/index.js" } },
      },
      { "dist/index.js": "export const one = 1;\n", "dist/index.d.cts": "export declare const one: 1;\n" },
    );
    expect(check(dir, work).join("\n")).toBe("@arethetypeswrong/cli (esm-only):\n    FalseCJS: /node_modules/@check/false-cjs/dist/index.d.cts");
  }, 60_000);
});
