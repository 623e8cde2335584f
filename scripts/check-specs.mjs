// `pnpm check:specs`: every shipped manifest against its pinned provider description
// (manifests/specs/checks.json), through the built CLI. Exit 1 if any check fails.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const specs = join(root, "manifests", "specs");
const config = JSON.parse(readFileSync(join(specs, "checks.json"), "utf8"));
const require = createRequire(join(root, "package.json"));
const locate = (path) => (path.includes("/") && !path.startsWith(".") ? require.resolve(path) : join(specs, path));
const cli = join(root, "packages", "cli", "dist", "bin.js");
const extra = process.argv.slice(2);
let failed = 0;
const runs = [
  ...config.openapi.map((entry) => ["openapi", "check", entry.manifest, "--spec", locate(entry.spec)]),
  ...config.graphql.map((entry) => ["graphql", "check", entry.manifest, "--schema", locate(entry.schema)]),
];
for (const [kind, command, manifest, flag, file] of runs) {
  const args = [
    cli,
    kind,
    command,
    join(root, "manifests", "integrations", `${manifest}.json`),
    flag,
    file,
    "--allow",
    join(specs, "allow-list.json"),
    ...extra,
  ];
  const result = spawnSync(process.execPath, args, { stdio: "inherit" });
  if (result.status !== 0) failed += 1;
}
process.exitCode = failed === 0 ? 0 : 1;
