// `pnpm release:check`: packs every public package exactly as it will be published
// (`pnpm pack` rewrites `workspace:*` to versions) and checks each tarball with
// publint (strict: a warning fails) and @arethetypeswrong/cli (the ESM-only profile:
// these packages are ESM, so only the CommonJS `require` resolutions are ignored).
// Exit 1 when any package has a problem, every problem printed. Run after a build.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { publicPackages, repositoryRoot } from "./lib/workspace.mjs";

const IGNORED_RESOLUTIONS = new Set(["node10", "node16-cjs"]);
const bin = (name) => join(repositoryRoot, "scripts", "node_modules", ".bin", name);

/** Checks one package folder; returns its problems as lines (empty when clean). */
export function checkPackage(dir, work) {
  const destination = mkdtempSync(join(work, "pack-"));
  execFileSync("pnpm", ["pack", "--pack-destination", destination], { cwd: dir, stdio: "ignore" });
  const [tarball] = readdirSync(destination).filter((file) => file.endsWith(".tgz"));
  if (tarball === undefined) return ["pnpm pack produced no tarball"];
  const path = join(destination, tarball);
  const problems = [];

  const publint = spawnSync(bin("publint"), ["run", path, "--strict", "--level", "warning"], { encoding: "utf8" });
  if (publint.status !== 0) problems.push(`publint:\n${indent(publint.stdout + publint.stderr)}`);

  const attw = spawnSync(bin("attw"), [path, "--profile", "esm-only", "--format", "json"], { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  if (attw.status !== 0) {
    let detail = attw.stderr.trim();
    try {
      const report = JSON.parse(attw.stdout);
      const list = report.analysis?.problems ?? report.problems ?? [];
      detail =
        (Array.isArray(list) ? list : Object.values(list).flat())
          // the esm-only profile ignores the CommonJS and node10 resolutions; attw's JSON lists them anyway
          .filter((problem) => !IGNORED_RESOLUTIONS.has(problem.resolutionKind))
          .map(
            (problem) =>
              `${problem.kind}${problem.entrypoint ? ` at ${problem.entrypoint}` : ""}${problem.resolutionKind ? ` (${problem.resolutionKind})` : ""}${problem.typesFileName ? `: ${problem.typesFileName}` : ""}`,
          )
          .join("\n") || detail;
    } catch {
      // not JSON: attw itself failed; stderr says why
    }
    problems.push(`@arethetypeswrong/cli (esm-only):\n${indent(detail)}`);
  }
  return problems;
}

function indent(text) {
  return text
    .trim()
    .split("\n")
    .map((line) => `    ${line}`)
    .join("\n");
}

/** Checks every package, printing each result; returns how many failed. */
export function checkRelease(packages) {
  const work = mkdtempSync(join(tmpdir(), "release-check-"));
  let failed = 0;
  try {
    for (const pkg of packages) {
      const problems = checkPackage(pkg.dir, work);
      if (problems.length === 0) {
        console.log(`ok ${pkg.name}@${pkg.version}: publint (strict) and attw (esm-only) found nothing`);
      } else {
        failed += 1;
        console.error(`FAIL ${pkg.name}@${pkg.version}\n${problems.join("\n")}`);
      }
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return failed;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const failed = checkRelease(publicPackages());
  if (failed > 0) {
    console.error(`${failed} package(s) failed the release check`);
    process.exit(1);
  }
}
