import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { changesetFileProblems, changesetPackages, checkChangesets } from "./check-changesets.mjs";

interface Result {
  changed: { name: string; files: string[] }[];
  missing: { name: string }[];
}
const check = checkChangesets as (options: { root: string; base: string }) => Result;
const script = new URL("check-changesets.mjs", import.meta.url).pathname;
let repo: string;

function write(path: string, text: string) {
  mkdirSync(dirname(join(repo, path)), { recursive: true });
  writeFileSync(join(repo, path), text);
}
function git(...args: string[]) {
  execFileSync("git", args, {
    cwd: repo,
    stdio: "ignore",
    env: { ...process.env, GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@t.invalid", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@t.invalid" },
  });
}
const packageJson = (name: string, extra: object = {}) => JSON.stringify({ name, version: "1.0.0", ...extra });

// A small workspace: two published packages and a private app, committed on main,
// then a pull-request branch.
beforeEach(() => {
  repo = mkdtempSync(join(tmpdir(), "changeset-check-"));
  write("package.json", packageJson("root", { private: true }));
  write("pnpm-workspace.yaml", "packages:\n  - packages/*\n  - apps/*\n  - manifests\n");
  write("packages/schema/package.json", packageJson("@x/schema"));
  write("packages/schema/src/index.ts", "export const a = 1;\n");
  write("manifests/package.json", packageJson("@x/manifests"));
  write("manifests/integrations/github.json", "{}\n");
  write("apps/broker/package.json", packageJson("@x/broker", { private: true }));
  write("apps/broker/src/app.ts", "export {};\n");
  write(".changeset/README.md", "# Changesets\n");
  git("init", "-q", "-b", "main");
  git("add", "-A");
  git("commit", "-q", "-m", "base");
  git("checkout", "-q", "-b", "feature");
});
afterEach(() => rmSync(repo, { recursive: true, force: true }));

describe("changeset check", () => {
  it("refuses a change to a published package without a changeset, naming the package", () => {
    write("manifests/integrations/gitlab.json", "{}\n");
    git("add", "-A");
    git("commit", "-q", "-m", "new integration");
    const result = check({ root: repo, base: "main" });
    expect(result.missing.map((entry) => entry.name)).toEqual(["@x/manifests"]);
    const cli = spawnSync("node", [script, "--base", "main"], { cwd: repo, encoding: "utf8" });
    expect(cli.status).toBe(1);
    expect(cli.stderr).toContain("@x/manifests changed without a changeset (manifests/integrations/gitlab.json)");
  });

  it("accepts the change once a changeset names the package, committed or not", () => {
    write("packages/schema/src/index.ts", "export const a = 2;\n");
    write(".changeset/brave-fox.md", '---\n"@x/schema": patch\n---\n\nFix a.\n');
    expect(check({ root: repo, base: "main" }).missing).toEqual([]);
    git("add", "-A");
    git("commit", "-q", "-m", "fix");
    expect(check({ root: repo, base: "main" })).toMatchObject({ changed: [{ name: "@x/schema" }], missing: [] });
    expect(spawnSync("node", [script, "--base", "main"], { cwd: repo, encoding: "utf8" }).status).toBe(0);
  });

  it("does not count a changeset for another package, nor one that was already on the base branch", () => {
    write(".changeset/old.md", '---\n"@x/schema": minor\n---\n\nOld.\n');
    git("add", "-A");
    git("commit", "-q", "-m", "old changeset");
    git("checkout", "-q", "main");
    git("merge", "-q", "feature");
    git("checkout", "-q", "-b", "second");
    write("packages/schema/src/index.ts", "export const a = 3;\n");
    write(".changeset/other.md", '---\n"@x/manifests": patch\n---\n\nOther.\n');
    expect(check({ root: repo, base: "main" }).missing.map((entry) => entry.name)).toEqual(["@x/schema"]);
  });

  it("needs no changeset for tests, fixtures, READMEs or private apps", () => {
    write("packages/schema/src/index.test.ts", "test\n");
    write("packages/schema/src/__fixtures__/a.json", "{}\n");
    write("packages/schema/README.md", "docs\n");
    write("apps/broker/src/app.ts", "export const changed = true;\n");
    expect(check({ root: repo, base: "main" })).toEqual(expect.objectContaining({ changed: [], missing: [] }));
  });

  it("says what to do when the base ref does not exist", () => {
    const cli = spawnSync("node", [script, "--base", "origin/nope"], { cwd: repo, encoding: "utf8" });
    expect(cli.status).toBe(2);
    expect(cli.stderr).toContain("cannot find the merge base of origin/nope");
  });

  it("reads the packages a changeset bumps from its front matter", () => {
    expect(changesetPackages('---\n"@x/a": minor\n\'@x/b\': patch\n@x/c: major\n---\n\ntext "@x/d": minor\n')).toEqual(["@x/a", "@x/b", "@x/c"]);
    expect(changesetPackages("---\n---\n\nempty changeset\n")).toEqual([]);
  });
});

describe("changeset files", () => {
  it("refuses a changeset added in the branch that names a private app or an unknown package", () => {
    write("packages/schema/src/index.ts", "export const a = 4;\n");
    write(".changeset/mixed.md", '---\n"@x/schema": minor\n"@x/broker": minor\n"@x/nope": patch\n---\n\nMixed.\n');
    const result = check({ root: repo, base: "main" }) as Result & { problems: string[] };
    expect(result.missing).toEqual([]);
    expect(result.problems).toEqual([
      '.changeset/mixed.md: "@x/nope" is not a package of this workspace',
      '.changeset/mixed.md: "@x/broker" is private and never released; leave it out (say what changed in the changeset of a published package, or in its README)',
    ]);
    const cli = spawnSync("node", [script, "--base", "main"], { cwd: repo, encoding: "utf8" });
    expect(cli.status).toBe(1);
    expect(cli.stderr).toContain('"@x/broker" is private and never released');
  });

  it("before a release: only a changeset mixing private and published packages is a problem", () => {
    write(".changeset/app-only.md", '---\n"@x/broker": minor\n---\n\nApp only.\n');
    write(".changeset/mixed.md", '---\n"@x/schema": minor\n"@x/broker": minor\n---\n\nMixed.\n');
    const problems = (changesetFileProblems as (root: string, packages: { name: string }[]) => string[])(repo, [
      { name: "@x/schema" },
      { name: "@x/manifests" },
    ]);
    expect(problems).toEqual([".changeset/mixed.md: names private @x/broker beside published packages; changeset version refuses such a mixed changeset"]);
  });
});
