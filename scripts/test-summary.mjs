// Prints one line `N passed, N failed` from every package's vitest JSON results.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

let passed = 0;
let failed = 0;
let skipped = 0;
const missing = [];
for (const group of ["packages", "apps", "bench", "manifests", "scripts", "examples"]) {
  const dirs =
    group === "bench" || group === "manifests" || group === "scripts" || group === "examples"
      ? [group]
      : existsSync(group)
        ? readdirSync(group).map((name) => join(group, name))
        : [];
  for (const dir of dirs) {
    const manifest = join(dir, "package.json");
    if (!existsSync(manifest) || !JSON.parse(readFileSync(manifest, "utf8")).scripts?.test) continue;
    const file = join(dir, ".vitest-results.json");
    if (!existsSync(file)) {
      missing.push(dir);
      failed += 1;
      continue;
    }
    const results = JSON.parse(readFileSync(file, "utf8"));
    passed += results.numPassedTests;
    failed += results.numFailedTests;
    skipped += results.numPendingTests + (results.numTodoTests ?? 0);
    // A suite that failed to load counts as a failure even though it ran no test.
    failed += results.testResults.filter((suite) => suite.status === "failed" && suite.assertionResults.length === 0).length;
  }
}
for (const dir of missing) console.error(`no test results from ${dir}`);
// `--counts` prints the three numbers alone, for .ci/run to add up over two Node versions.
if (process.argv.includes("--counts")) console.log(`${passed} ${failed} ${skipped}`);
else console.log(`${passed} passed, ${failed} failed${skipped > 0 ? `, ${skipped} skipped` : ""}`);
