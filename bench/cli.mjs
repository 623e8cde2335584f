// The CLI's start-up: `integrations --help`, `validate` (of the shipped manifests) and `run` (up to
// its first step: reading the grant file, which does not exist here), each a fresh node process,
// against `node -e 0` started the same way, interleaved; medians of wall time. Goal for --help: at
// most 2x (DESIGN.md "Fast at the limit"); every command should load only its own code.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { fmt } from "./measure.mjs";

const BIN = fileURLToPath(new URL("../packages/cli/dist/bin.js", import.meta.url));
const MANIFESTS = fileURLToPath(new URL("../manifests/integrations", import.meta.url));
const ROUNDS = 15;
const GOAL = 2;

function timed(args, cwd) {
  const start = performance.now();
  const result = spawnSync(process.execPath, args, { cwd, encoding: "utf8", env: { ...process.env, NO_COLOR: "1" } });
  const ms = performance.now() - start;
  return { ms, status: result.status, out: `${result.stdout}${result.stderr}` };
}

export async function run() {
  const home = mkdtempSync(join(tmpdir(), "eleven-cli-bench-"));
  const commands = {
    "--help": [BIN, "--help"],
    validate: [BIN, "validate", MANIFESTS],
    run: [BIN, "run", "github", "repos.list", "--grant", `@${join(home, "missing-grant")}`, "--sidecar", "http://127.0.0.1:9"],
  };
  try {
    const floor = [];
    const times = Object.fromEntries(Object.keys(commands).map((name) => [name, []]));
    for (let round = 0; round < ROUNDS + 2; round += 1) {
      const base = timed(["-e", "0"], home);
      if (round >= 2) floor.push(base.ms);
      for (const [name, args] of Object.entries(commands)) {
        const result = timed(args, home);
        if (name !== "run" && result.status !== 0) throw new Error(`integrations ${name} failed: ${result.out.slice(0, 300)}`);
        if (name === "run" && !/grant/i.test(result.out)) throw new Error(`integrations run did not stop at the grant: ${result.out.slice(0, 300)}`);
        if (round >= 2) times[name].push(result.ms);
      }
    }
    const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
    const base = median(floor);
    console.log(`node -e 0: ${fmt(base, 0)} ms`);
    for (const name of Object.keys(commands)) {
      const ms = median(times[name]);
      const goal = name === "--help" ? ` (goal at most ${GOAL}x) ${ms / base <= GOAL ? "ok" : "OVER"}` : "";
      console.log(`integrations ${name}: ${fmt(ms, 0)} ms, ${fmt(ms / base, 2)}x node -e 0${goal}`);
    }
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
