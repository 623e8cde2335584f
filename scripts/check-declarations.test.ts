import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { declarationProblems } from "./check-declarations.mjs";
import { workspaceFolders } from "./lib/workspace.mjs";

const problemsOf = declarationProblems as (folder: string, root?: string) => string[];
const lint = new URL("lint.mjs", import.meta.url).pathname;
let work: string;

function write(files: Record<string, string>) {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(work, path)), { recursive: true });
    writeFileSync(join(work, path), text);
  }
}

/** What `markedError`'s declaration was before its return type was written out. */
const INFERRED_ERROR_CLASS = `export declare function markedError<const Name extends string>(name: Name): {
    new (message?: string, options?: ErrorOptions): { readonly name: Name; message: string };
    captureStackTrace(targetObject: object, constructorOpt?: Function): void;
    prepareStackTrace(err: Error, stackTraces: NodeJS.CallSite[]): any;
    stackTraceLimit: number;
};
`;

beforeEach(() => {
  work = mkdtempSync(join(tmpdir(), "declarations-test-"));
});
afterEach(() => rmSync(work, { recursive: true, force: true }));

describe("the built declarations check", () => {
  it("names each `any` type of dist/**/*.d.ts with its file and line (an inherited static like prepareStackTrace's)", () => {
    write({
      "dist/index.d.ts": 'export { markedError } from "./errors/marked-error.js";\n',
      "dist/errors/marked-error.d.ts": INFERRED_ERROR_CLASS,
      "dist/values.d.ts": "export declare const values: Array<any>;\nexport type Loose = Record<string, any>;\n",
    });
    expect(problemsOf(work, work).sort()).toEqual([
      "dist/errors/marked-error.d.ts:4: `any` in a built declaration: prepareStackTrace(err: Error, stackTraces: NodeJS.CallSite[]): any;",
      "dist/values.d.ts:1: `any` in a built declaration: export declare const values: Array<any>;",
      "dist/values.d.ts:2: `any` in a built declaration: export type Loose = Record<string, any>;",
    ]);
  });

  it("passes `any` in a comment, a string literal type or a name, and a package without dist", () => {
    write({
      "dist/index.d.ts":
        '/** Refuses any key outside `required`. */\nexport declare function refuse(mode: "any" | "all", anyKey: unknown): unknown;\n// returns any\nexport type Company = { many: string };\n',
    });
    expect(problemsOf(work, work)).toEqual([]);
    expect(problemsOf(join(work, "not-built"), work)).toEqual([]);
  });

  it("fails a package's lint (scripts/lint.mjs) on an `any` in its built declarations", () => {
    write({ "src/index.ts": "export const one = 1;\n", "dist/index.d.ts": "export declare const one: any;\n" });
    const failed = spawnSync("node", [lint], { cwd: work, encoding: "utf8" });
    expect(failed.status).toBe(1);
    expect(failed.stderr).toContain("dist/index.d.ts:1: `any` in a built declaration: export declare const one: any;");
    write({ "dist/index.d.ts": "export declare const one = 1;\n" });
    expect(spawnSync("node", [lint], { cwd: work, encoding: "utf8" }).status).toBe(0);
  }, 30_000);

  it("finds no `any` in the built declarations of any package of this workspace (run after a build)", () => {
    const folders = (workspaceFolders as () => string[])();
    expect(folders.length).toBeGreaterThan(10);
    expect(folders.flatMap((folder) => problemsOf(folder))).toEqual([]);
  });
});
