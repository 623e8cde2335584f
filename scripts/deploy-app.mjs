#!/usr/bin/env node
// `node scripts/deploy-app.mjs <broker|sidecar> <dir> [--no-node]`: one app as a
// self-contained production folder, what an operator copies to /opt/eleven-<app> (the
// systemd units) or what the Dockerfiles' last stage holds.
//
//   1. `pnpm --filter @eleven-integrations/<app> deploy --prod <dir>` (pnpm's deploy):
//      the app's dist/ and package.json, and a node_modules/ with its production
//      dependencies alone, the workspace packages among them copied in (their packed
//      files, never a link back into the repository). The apps must be built first
//      (`pnpm build`); this refuses an app without dist/server.js.
//   2. the node binary running this script, as <dir>/node (left out with --no-node: the
//      Docker image has its own), so the folder runs on a machine with no node at all:
//      `<dir>/node <dir>/dist/server.js`.
import { execFileSync } from "node:child_process";
import { chmodSync, copyFileSync, existsSync, readdirSync } from "node:fs";
import { isAbsolute, join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { repositoryRoot } from "./lib/workspace.mjs";

export const DEPLOYABLE_APPS = ["broker", "sidecar"];

/** Builds `app` into `dir` (which must be missing or empty); returns the command that starts it. */
export function deployApp(app, dir, { node = true } = {}) {
  if (!DEPLOYABLE_APPS.includes(app)) throw new Error(`unknown app ${app}; one of ${DEPLOYABLE_APPS.join(", ")}`);
  const target = isAbsolute(dir) ? dir : resolve(dir);
  if (existsSync(target) && readdirSync(target).length > 0) throw new Error(`${target} is not empty`);
  const server = join(repositoryRoot, "apps", app, "dist", "server.js");
  if (!existsSync(server)) throw new Error(`apps/${app} is not built (no dist/server.js); run pnpm build first`);
  execFileSync("pnpm", ["--filter", `@eleven-integrations/${app}`, "deploy", "--prod", "--config.inject-workspace-packages=true", target], {
    cwd: repositoryRoot,
    stdio: ["ignore", "pipe", "inherit"],
    env: { ...process.env, CI: "true" },
  });
  if (node) {
    copyFileSync(process.execPath, join(target, "node"));
    chmodSync(join(target, "node"), 0o755);
  }
  return { dir: target, command: [node ? join(target, "node") : "node", join(target, "dist", "server.js")] };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values, positionals } = parseArgs({ allowPositionals: true, options: { "no-node": { type: "boolean", default: false } } });
  const [app, dir] = positionals;
  if (app === undefined || dir === undefined) {
    process.stderr.write("usage: node scripts/deploy-app.mjs <broker|sidecar> <dir> [--no-node]\n");
    process.exit(2);
  }
  try {
    const { command } = deployApp(app, dir, { node: !values["no-node"] });
    process.stdout.write(`eleven-${app} deployed; start it with: ${command.join(" ")}\n`);
  } catch (error) {
    process.stderr.write(`deploy-app: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
}
