// Repository lint: no focused or skipped tests, no `any` in source.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";

const problems = [];
function walk(dir) {
  for (const name of readdirSync(dir)) {
    if (name === "node_modules" || name === "dist" || name.startsWith(".")) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path);
    else if (/\.(ts|mts|js|mjs)$/.test(name)) check(path);
  }
}
function check(path) {
  readFileSync(path, "utf8").split("\n").forEach((line, index) => {
    if (/\b(it|test|describe)\.(only|skip|todo)\(|\bxit\(|\bfit\(/.test(line)) problems.push(`${path}:${index + 1}: focused or skipped test`);
    if (/\.ts$/.test(path) && /:\s*any\b|<any>|as any\b/.test(line)) problems.push(`${path}:${index + 1}: \`any\``);
  });
}
walk(process.argv[2] ?? "src");
for (const problem of problems) console.error(problem);
if (problems.length > 0) process.exit(1);
