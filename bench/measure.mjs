// Shared timing helpers: alternate the measured and floor runs so both see the same machine state.
import { performance } from "node:perf_hooks";

/** Median of `rounds` timings of `fn` (milliseconds), after `warmup` untimed calls. */
export async function medianMs(fn, { rounds = 15, warmup = 3 } = {}) {
  for (let i = 0; i < warmup; i += 1) await fn();
  const times = [];
  for (let i = 0; i < rounds; i += 1) {
    const start = performance.now();
    await fn();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

/** CPU time of this process (user + system), in milliseconds. */
export const cpuNow = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

/**
 * Times `measured` and `floor` interleaved; returns both medians and their ratio.
 * `clock: "cpu"` counts this process's CPU time instead of wall time: on a machine
 * shared with other work, time spent descheduled then counts for neither side.
 * `settle: true` (needs `--expose-gc`, as `pnpm bench` runs) makes a full collection,
 * untimed, before each timed call. Without it, what one side keeps (a loaded registry)
 * can still be in the young generation when the other side starts, whose first scavenges
 * then pay for moving it: a side that leaves more of its work there looks cheaper.
 */
export async function compare(measured, floor, options = {}) {
  const rounds = options.rounds ?? 15;
  const warmup = options.warmup ?? 3;
  const now = options.clock === "cpu" ? cpuNow : () => performance.now();
  for (let i = 0; i < warmup; i += 1) {
    await measured();
    await floor();
  }
  const a = [];
  const b = [];
  const settle = options.settle === true && typeof globalThis.gc === "function" ? globalThis.gc : () => {};
  for (let i = 0; i < rounds; i += 1) {
    settle();
    let start = now();
    await measured();
    a.push(now() - start);
    settle();
    start = now();
    await floor();
    b.push(now() - start);
  }
  const median = (list) => list.sort((x, y) => x - y)[Math.floor(list.length / 2)];
  const measuredMs = median(a);
  const floorMs = median(b);
  return { measuredMs, floorMs, ratio: measuredMs / floorMs };
}

export const fmt = (n, digits = 2) => n.toFixed(digits);
