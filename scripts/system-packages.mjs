#!/usr/bin/env node
// Installs the system programs the tests run as real peers (redis-server, Debian's
// chromium, python3) when they are missing, before any test starts: an install inside a test's
// setup would race its timeout on a fresh machine. Debian only (apt-get, as root).
import { spawnSync } from "node:child_process";

const needed = [
  { program: "redis-server", pkg: "redis-server" },
  // The broker's Sentinel test (a real failover) runs redis-sentinel beside redis-server.
  { program: "redis-sentinel", pkg: "redis-sentinel" },
  { program: "chromium", pkg: "chromium" },
  // examples/python-bot runs with Python's standard library alone.
  { program: "python3", pkg: "python3" },
  // promtool (Debian's prometheus package) checks the sidecar's and broker's metrics exposition.
  { program: "promtool", pkg: "prometheus" },
];

const onPath = (program) => spawnSync("sh", ["-c", `command -v ${program}`], { stdio: "ignore" }).status === 0;
const missing = needed.filter(({ program }) => !onPath(program)).map(({ pkg }) => pkg);
if (missing.length === 0) process.exit(0);

if (!onPath("apt-get")) {
  console.error(`system-packages: missing ${missing.join(", ")} and no apt-get here: install them with your system's package manager`);
  process.exit(1);
}
const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
const apt = (...args) => {
  const command = ["apt-get", "-o", "DPkg::Lock::Timeout=300", ...args];
  const [file, ...rest] = isRoot ? command : ["sudo", ...command];
  const result = spawnSync(file, rest, {
    stdio: ["ignore", "ignore", "inherit"],
    env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
  });
  return result.status === 0;
};
console.log(`system-packages: installing ${missing.join(", ")} with apt-get`);
if (!apt("update") || !apt("install", "-y", "--no-install-recommends", ...missing)) {
  console.error(`system-packages: apt-get could not install ${missing.join(", ")}`);
  process.exit(1);
}
