// Debian's chromium for browser tests, installed from the system's packages when missing
// (apt-get update, then apt-get install -y chromium), as redis-server is in test-support.
import { existsSync } from "node:fs";
import { spawnSync } from "node:child_process";

export const CHROMIUM = "/usr/bin/chromium";

/** The launch arguments every browser test uses: no sandbox (root in CI), nothing fetched from the network by the browser itself. */
export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** The chromium binary, installed with apt-get when missing; throws with what to do when that fails. */
export function ensureChromium(): string {
  if (existsSync(CHROMIUM)) return CHROMIUM;
  const sudo = process.getuid?.() === 0 ? [] : ["sudo", "-n"];
  const run = (args: string[]) => {
    const [command, ...rest] = [...sudo, ...args] as [string, ...string[]];
    spawnSync(command, rest, { stdio: "inherit", env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } });
  };
  const lock = ["-o", "DPkg::Lock::Timeout=300"];
  run(["apt-get", ...lock, "update"]);
  run(["apt-get", ...lock, "install", "-y", "--no-install-recommends", "chromium"]);
  if (!existsSync(CHROMIUM)) throw new Error("chromium is missing and could not be installed: run `apt-get install -y chromium`");
  return CHROMIUM;
}
