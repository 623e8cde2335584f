import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { cycleProblems } from "./check-import-cycles.mjs";
import { workspaceFolders } from "./lib/workspace.mjs";

const problemsOf = cycleProblems as (folders: string[], root?: string) => string[];
const script = new URL("check-import-cycles.mjs", import.meta.url).pathname;
let work: string;

function write(files: Record<string, string>) {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(work, path)), { recursive: true });
    writeFileSync(join(work, path), text);
  }
}

beforeEach(() => {
  work = mkdtempSync(join(tmpdir(), "import-cycles-test-"));
});
afterEach(() => rmSync(work, { recursive: true, force: true }));

describe("the import circle check", () => {
  it("names the files of a circle made only of type imports (like the broker's http/context ⇄ config)", () => {
    write({
      "src/config/config.ts": 'import type { Event } from "../http/context.js";\nexport interface App { on(event: Event): void }\n',
      "src/http/context.ts": 'import type { App } from "../config/config.js";\nexport interface Event { app: App }\n',
      "src/http/other.ts": 'import type { Event } from "./context.js";\nexport type Other = Event;\n',
    });
    expect(problemsOf([work], work)).toEqual(["import circle of 2 file(s): src/config/config.ts ⇄ src/http/context.ts"]);
  });

  it("follows re-exports, dynamic imports, extensionless and index imports, and a file that imports itself", () => {
    write({
      "a.ts": 'export * from "./b.js";\n',
      "b.ts": 'export const load = () => import("./c");\n',
      "c/index.ts": 'import "../a.js";\n',
      "self.mts": 'export { x } from "./self.mjs";\nexport const x = 1;\n',
    });
    expect(problemsOf([work], work)).toEqual(["import circle of 3 file(s): a.ts ⇄ b.ts ⇄ c/index.ts", "import circle of 1 file(s): self.mts"]);
  });

  it("passes imports that only go one way, and ignores an import written in a comment or a string", () => {
    write({
      "rules.ts": 'import type { Op } from "./op.js";\n// import { schema } from "./schema.js";\nexport const rule = (op: Op) => op;\n',
      "op.ts": 'export interface Op { id: string }\nexport const example = `import { rule } from "./rules.js"`;\n',
      "schema.ts": 'import { rule } from "./rules.js";\nimport type { Op } from "./op.js";\nexport const schema = (op: Op) => rule(op);\n',
      "node_modules/x/a.ts": 'import "./b.js";\n',
      "node_modules/x/b.ts": 'import "./a.js";\n',
    });
    expect(problemsOf([work], work)).toEqual([]);
  });

  it("exits 1 from the command line, naming the circle, and 0 on a folder without one", () => {
    write({ "one/a.ts": 'import "./b.js";\n', "one/b.ts": 'import "./a.js";\n', "two/a.ts": 'import "./b.js";\n', "two/b.ts": "export {};\n" });
    const failed = spawnSync("node", [script, join(work, "one")], { cwd: work, encoding: "utf8" });
    expect(failed.status).toBe(1);
    expect(failed.stderr).toContain("import circle of 2 file(s): one/a.ts ⇄ one/b.ts");
    expect(spawnSync("node", [script, join(work, "two")], { cwd: work, encoding: "utf8" }).status).toBe(0);
  }, 30_000);

  it("finds no circle in any package of this workspace", () => {
    const folders = (workspaceFolders as () => string[])();
    expect(folders.length).toBeGreaterThan(10);
    expect(problemsOf(folders)).toEqual([]);
  });
});
