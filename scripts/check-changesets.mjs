// `pnpm changeset:check [--base <ref>]`: refuses a change to a published package
// that comes without a changeset. Compares the working tree (commits, staged,
// unstaged and new files) with the merge base of <ref> (default: origin/$GITHUB_BASE_REF
// on a GitHub pull request, else `main`) and exits 1 naming every public package
// that changed while no changeset added in that range names it.
//
// What counts as a change: any file of the package's folder except tests
// (`*.test.ts`), fixtures (`__fixtures__/`), `README.md` and `CHANGELOG.md`,
// which change nothing a user installs or runs. A changeset added in the range must
// name only published workspace packages (the apps are private and never released).
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { parseArgs } from "node:util";
import { publicPackages, repositoryRoot } from "./lib/workspace.mjs";

const IGNORED = [/\.test\.[cm]?[jt]sx?$/, /(^|\/)__fixtures__\//, /(^|\/)README\.md$/, /(^|\/)CHANGELOG\.md$/];

function git(args, cwd) {
  return execFileSync("git", args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
}

function lines(text) {
  return text
    .split("\n")
    .map((line) => line.trim())
    .filter(Boolean);
}

/** The package names a changeset's front matter bumps (`"@scope/name": minor`). */
export function changesetPackages(text) {
  const match = /^---\r?\n([\s\S]*?)\r?\n---/.exec(text);
  if (match === null) return [];
  return lines(match[1])
    .map((line) => /^["']?([^"':]+)["']?\s*:\s*(major|minor|patch|none)\s*$/.exec(line)?.[1])
    .filter((name) => name !== undefined);
}

/**
 * The problems of the changeset files in `.changeset/` (or only `files`, paths
 * relative to `root`): a name that is no workspace package, or a private package
 * (the apps are never released) named beside public ones, which `changeset version`
 * refuses ("mixed changeset") and would stop a release.
 */
export function changesetFileProblems(root, packages, files) {
  const publicNames = new Set(packages.map((pkg) => pkg.name));
  const all = JSON.parse(execFileSync("pnpm", ["-r", "ls", "--json", "--depth", "-1"], { cwd: root, encoding: "utf8" })).map((entry) => entry.name);
  const problems = [];
  const list =
    files ??
    readdirSync(join(root, ".changeset"))
      .filter((file) => file.endsWith(".md") && file !== "README.md")
      .map((file) => `.changeset/${file}`);
  for (const file of list) {
    const names = changesetPackages(readFileSync(join(root, file), "utf8"));
    for (const name of names) {
      if (!all.includes(name)) problems.push(`${file}: "${name}" is not a package of this workspace`);
    }
    const privateNames = names.filter((name) => all.includes(name) && !publicNames.has(name));
    if (files !== undefined) {
      for (const name of privateNames)
        problems.push(
          `${file}: "${name}" is private and never released; leave it out (say what changed in the changeset of a published package, or in its README)`,
        );
    } else if (privateNames.length > 0 && privateNames.length < names.length) {
      problems.push(`${file}: names private ${privateNames.join(", ")} beside published packages; changeset version refuses such a mixed changeset`);
    }
  }
  return problems;
}

/**
 * Which public packages changed since the merge base with `base`, and which of
 * them no changeset in that range names. Returns `{ base, changed, missing }`.
 */
export function checkChangesets({ root = repositoryRoot, base = "main" } = {}) {
  let mergeBase;
  try {
    mergeBase = git(["merge-base", base, "HEAD"], root).trim();
  } catch {
    throw new Error(`cannot find the merge base of ${base} and HEAD (fetch the base branch first: git fetch origin ${base.replace(/^origin\//, "")})`);
  }
  const files = new Set([...lines(git(["diff", "--name-only", mergeBase], root)), ...lines(git(["ls-files", "-o", "--exclude-standard"], root))]);
  const named = new Set();
  const added = [];
  for (const file of files) {
    if (!/^\.changeset\/[^/]+\.md$/.test(file) || file === ".changeset/README.md") continue;
    if (!existsSync(join(root, file))) continue; // a changeset consumed or removed in this range names nothing new
    added.push(file);
    for (const name of changesetPackages(readFileSync(join(root, file), "utf8"))) named.add(name);
  }
  const packages = publicPackages(root);
  const changed = [];
  for (const pkg of packages) {
    const folder = `${relative(root, pkg.dir)}/`;
    const touched = [...files].filter((file) => file.startsWith(folder) && !IGNORED.some((pattern) => pattern.test(file.slice(folder.length))));
    if (touched.length > 0) changed.push({ name: pkg.name, files: touched });
  }
  return { base: mergeBase, changed, missing: changed.filter((entry) => !named.has(entry.name)), problems: changesetFileProblems(root, packages, added) };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({ options: { base: { type: "string" } } });
  const base = values.base ?? (process.env.GITHUB_BASE_REF ? `origin/${process.env.GITHUB_BASE_REF}` : "main");
  try {
    // The repository the command runs in (pnpm runs root scripts from the root).
    const root = git(["rev-parse", "--show-toplevel"], process.cwd()).trim();
    const result = checkChangesets({ root, base });
    for (const problem of result.problems) console.error(problem);
    if (result.missing.length === 0 && result.problems.length === 0) {
      console.log(`changesets: ok (${result.changed.length} changed public package(s) since ${base}, each named by a changeset)`);
    } else {
      for (const entry of result.missing)
        console.error(`${entry.name} changed without a changeset (${entry.files.slice(0, 3).join(", ")}${entry.files.length > 3 ? ", …" : ""})`);
      if (result.missing.length > 0) console.error(`add one with \`pnpm changeset\` (manifests: minor for a new integration, patch for a fix) and commit it`);
      process.exit(1);
    }
  } catch (error) {
    console.error(`changeset:check: ${error.message}`);
    process.exit(2);
  }
}
