// Packs every published package with `pnpm pack`, installs the tarballs in an empty
// folder with npm, and imports each one there: what a user of a single package gets.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const root = new URL("..", import.meta.url).pathname;
const folders = ["packages/schema", "packages/loader", "packages/executor", "packages/grants", "packages/cli", "manifests"];
const work = mkdtempSync(join(tmpdir(), "pack-check-"));
const tarballs = join(work, "tarballs");
const app = join(work, "app");
try {
  const names = [];
  for (const folder of folders) {
    const manifest = JSON.parse(readFileSync(join(root, folder, "package.json"), "utf8"));
    execFileSync("pnpm", ["pack", "--pack-destination", tarballs], { cwd: join(root, folder), stdio: "ignore" });
    names.push(manifest.name);
  }
  execFileSync("mkdir", ["-p", app]);
  writeFileSync(join(app, "package.json"), JSON.stringify({ name: "pack-check", private: true, type: "module" }));
  const files = readdirSync(tarballs).map((file) => join(tarballs, file));
  execFileSync("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error", ...files], { cwd: app, stdio: "ignore" });
  const script = names.map((name) => `const m${names.indexOf(name)} = await import(${JSON.stringify(name)}); if (Object.keys(m${names.indexOf(name)}).length === 0) throw new Error("${name} exports nothing");`).join("\n");
  writeFileSync(join(app, "check.mjs"), `${script}\nconsole.log("imported: ${names.join(", ")}");\n`);
  process.stdout.write(execFileSync("node", ["check.mjs"], { cwd: app, encoding: "utf8" }));
  process.stdout.write(execFileSync("npx", ["--no-install", "integrations", "validate"], { cwd: app, encoding: "utf8" }));
} finally {
  rmSync(work, { recursive: true, force: true });
}
