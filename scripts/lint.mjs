// Repository lint: no focused or skipped tests, no `any` in source nor in the built
// declarations (dist/**/*.d.ts, see check-declarations.mjs), and no copy of a rule
// that has one home in @eleven-integrations/schema (the error marker, the op-id and key patterns).
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { declarationProblems } from "./check-declarations.mjs";

const problems = [];
function walk(dir) {
  for (const name of readdirSync(dir)) {
    if (name === "node_modules" || name === "dist" || name.startsWith(".")) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path);
    else if (/\.(ts|mts|js|mjs)$/.test(name)) check(path);
  }
}
/** Rules with one home (packages/schema/src): a copy elsewhere drifts. */
const SHARED_RULES = [
  { text: 'Symbol.for("eleven-integrations.error.', what: "an error marker: extend markedError(name) from @eleven-integrations/schema" },
  { text: "[a-z][a-z0-9_]*\\.[a-z][a-z0-9_]*$/", what: "the op-id pattern: import OP_ID_PATTERN from @eleven-integrations/schema" },
  { text: "{42}[AEIMQUYcgkosw048]", what: "the key pattern: import KEY_PATTERN from @eleven-integrations/schema" },
];
const HOME = /(^|\/)src\/(marked-error|patterns)\.ts$/;
const IN_SCHEMA = /packages[\\/]schema$/.test(process.cwd());

function check(path) {
  readFileSync(path, "utf8")
    .split("\n")
    .forEach((line, index) => {
      if (!(IN_SCHEMA && HOME.test(path)) && !/\.test\.ts$/.test(path)) {
        for (const rule of SHARED_RULES) if (line.includes(rule.text)) problems.push(`${path}:${index + 1}: a copy of ${rule.what}`);
      }
      if (/\b(it|test|describe)\.(only|skip|todo)\(|\bxit\(|\bfit\(/.test(line)) problems.push(`${path}:${index + 1}: focused or skipped test`);
      if (/\.ts$/.test(path) && /:\s*any\b|<any>|as any\b/.test(line)) problems.push(`${path}:${index + 1}: \`any\``);
    });
}
walk(process.argv[2] ?? "src");
problems.push(...declarationProblems(process.cwd(), process.cwd()));
for (const problem of problems) console.error(problem);
if (problems.length > 0) process.exit(1);
