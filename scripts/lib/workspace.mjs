// The workspace's packages, read from package.json files the way pnpm lists them.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";

/** The repository root (this file is scripts/lib/workspace.mjs). */
export const repositoryRoot = new URL("../../", import.meta.url).pathname.replace(/\/$/, "");

/**
 * Every workspace package that is published: not `private`. Each is `{ name, version,
 * dir, manifest }`, `manifest` being its parsed package.json.
 */
export function publicPackages(root = repositoryRoot) {
  const listed = JSON.parse(execFileSync("pnpm", ["-r", "ls", "--json", "--depth", "-1"], { cwd: root, encoding: "utf8" }));
  return listed
    .filter((entry) => entry.path !== root)
    .map((entry) => {
      const manifest = JSON.parse(readFileSync(join(entry.path, "package.json"), "utf8"));
      return { name: manifest.name, version: manifest.version, dir: entry.path, manifest };
    })
    .filter((entry) => entry.manifest.private !== true)
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** The folder of every workspace package, private ones too (not the repository root). */
export function workspaceFolders(root = repositoryRoot) {
  const listed = JSON.parse(execFileSync("pnpm", ["-r", "ls", "--json", "--depth", "-1"], { cwd: root, encoding: "utf8" }));
  return listed
    .map((entry) => entry.path)
    .filter((path) => path !== root)
    .sort();
}

/** Runs a command, its output shown, and throws with the command named when it fails. */
export function run(command, args, options = {}) {
  execFileSync(command, args, { stdio: "inherit", ...options });
}
