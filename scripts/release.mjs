// `pnpm release`: version, build, check and publish every public package.
//
//   0. refuses a dirty working tree (what is published must be what is committed) and
//      a changeset that names an unknown package or mixes private and published ones
//   1. `changeset version`: applies the pending changesets (versions, changelogs)
//   2. `turbo run build` of the public packages, their dist/ folders removed first
//   3. the signed registry document (the release key is required, see below); the
//      versions and the document are committed as "Version packages", so the tags
//      of step 5 point at what was published
//   4. the release check: publint (strict) and attw (ESM-only) on each packed tarball
//   5. `changeset publish`: every public package whose version is not yet on the registry
//
// Options:
//   --registry <url>      publish only there: refuses to start (and again before
//                         publishing) when any package would go elsewhere. Also
//                         read from ELEVEN_RELEASE_REGISTRY.
//   --release-key <file>  required: signs the registry (`integrations registry sign`,
//                         `--previous` the last release) into manifests/registry.signed.json,
//                         shipped in the manifests package. Also ELEVEN_RELEASE_KEY;
//                         --sequence <n> or ELEVEN_RELEASE_SEQUENCE (default: one more
//                         than the last release's).
//   --no-version          skip step 1 (the versions were bumped in a pull request).
import { execFileSync } from "node:child_process";
import { existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { changesetFileProblems } from "./check-changesets.mjs";
import { checkRelease } from "./release-check.mjs";
import { assertOneRegistry } from "./lib/registry-guard.mjs";
import { signRegistry } from "./lib/sign-registry.mjs";
import { publicPackages, repositoryRoot, run } from "./lib/workspace.mjs";

const { values } = parseArgs({
  options: {
    registry: { type: "string" },
    "release-key": { type: "string" },
    sequence: { type: "string" },
    "no-version": { type: "boolean", default: false },
  },
});
const registry = values.registry ?? process.env.ELEVEN_RELEASE_REGISTRY;
const releaseKey = values["release-key"] ?? (process.env.ELEVEN_RELEASE_KEY || undefined);
const sequence = values.sequence ?? process.env.ELEVEN_RELEASE_SEQUENCE;
const cwd = repositoryRoot;
const env = { ...process.env, TURBO_TELEMETRY_DISABLED: "1" };

function git(args) {
  return execFileSync("git", args, { cwd, encoding: "utf8" }).trim();
}

try {
  // A release carries the signed registry document, so it needs the release key before anything changes.
  if (releaseKey === undefined)
    throw new Error("give the release key: --release-key <file> or ELEVEN_RELEASE_KEY (make one with `integrations keys release --out <file>`)");
  if (!existsSync(releaseKey)) throw new Error(`the release key file ${releaseKey} does not exist`);
  const target = assertOneRegistry(publicPackages(cwd), registry);
  console.log(`release: publishing to ${target}`);
  const problems = changesetFileProblems(cwd, publicPackages(cwd));
  if (problems.length > 0) throw new Error(`fix these changesets first:\n  ${problems.join("\n  ")}`);
  const dirty = git(["status", "--porcelain"]);
  if (dirty !== "") throw new Error(`the working tree is not clean; commit or stash first:\n${dirty}`);
  if (!values["no-version"]) run("pnpm", ["exec", "changeset", "version"], { cwd, env });
  // A clean build: a file left in dist/ by an older source layout would otherwise be published.
  for (const pkg of publicPackages(cwd)) rmSync(join(pkg.dir, "dist"), { recursive: true, force: true });
  // The public packages and what they need to build (the apps only as a test dependency of the CLI).
  const filters = publicPackages(cwd).map((pkg) => `--filter=${pkg.name}`);
  run("pnpm", ["exec", "turbo", "run", "build", "--output-logs=errors-only", ...filters], { cwd, env });
  console.log(`release: signed registry written to ${signRegistry({ root: cwd, keyFile: releaseKey, sequence })}`);
  // dist/index.js of the manifests package now points at the document it carries.
  run("pnpm", ["--filter", "@eleven-integrations/manifests", "run", "build"], { cwd, env });
  if (git(["status", "--porcelain"]) !== "") {
    git(["add", "-A"]);
    git(["commit", "-q", "-m", "Version packages"]);
  }
  const failures = checkRelease(publicPackages(cwd));
  if (failures > 0) throw new Error(`${failures} package(s) failed the release check (publint, attw); nothing was published`);
  assertOneRegistry(publicPackages(cwd), target);
  run("pnpm", ["exec", "changeset", "publish"], { cwd, env });
} catch (error) {
  console.error(`release: ${error.message}`);
  process.exit(1);
}
