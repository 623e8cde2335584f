// The broker's GET /registry under autocannon on loopback, as a 200 and as a 304 (If-None-Match),
// against a bare fastify route returning the same bytes, all in one run. Goal: at least 0.9x.
// The servers run in a child process (this file, forked) so the load generator does not share
// their event loop. Every target is warmed up first, then measured in alternating rounds, and
// each keeps its best round, so a noisy moment on a shared machine does not land on one target.
import { fork } from "node:child_process";
import { randomBytes } from "node:crypto";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import { buildApp } from "@eleven-integrations/broker";
import { loadRegistry } from "@eleven-integrations/loader";
import { manifestFiles } from "@eleven-integrations/manifests";
import Fastify from "fastify";
import { fmt } from "./measure.mjs";

const CONNECTIONS = 10;
const SECONDS = 3;
const WARMUP_SECONDS = 2;
const ROUNDS = 3;
const GOAL = 0.9;

/** Child: the broker and the bare route, each on its own loopback port. */
async function serve() {
  const broker = buildApp({
    registry: loadRegistry(manifestFiles),
    publicUrl: "https://broker.example.com",
    stateKey: randomBytes(32).toString("base64url"),
    allowedReturnTo: [],
    logger: false,
  });
  await broker.listen({ host: "127.0.0.1", port: 0 });
  const served = await broker.inject({ method: "GET", url: "/registry" });
  const bytes = served.rawPayload;

  const bare = Fastify({ logger: false });
  bare.get("/registry", (_request, reply) => reply.header("content-type", "application/json; charset=utf-8").send(bytes));
  await bare.listen({ host: "127.0.0.1", port: 0 });

  process.send({ broker: broker.server.address().port, bare: bare.server.address().port, etag: served.headers.etag, bytes: bytes.length });
  process.on("message", (message) => {
    if (message === "cpu") process.send({ cpu: process.cpuUsage() });
  });
  process.on("disconnect", () => {
    Promise.all([broker.close(), bare.close()]).finally(() => process.exit(0));
  });
}

function cannon(url, headers, seconds) {
  return autocannon({ url, headers, connections: CONNECTIONS, duration: seconds });
}

/** The server process's CPU time so far, in microseconds. */
function serverCpu(child) {
  return new Promise((resolve) => {
    const listener = (message) => {
      if (message?.cpu === undefined) return;
      child.off("message", listener);
      resolve(message.cpu.user + message.cpu.system);
    };
    child.on("message", listener);
    child.send("cpu");
  });
}

/**
 * One run; refuses a run where any answer had another status than the target's. Also the
 * server's CPU time per request, which a busy machine disturbs less than req/s.
 */
async function measure(child, target, seconds) {
  const cpuBefore = await serverCpu(child);
  const result = await cannon(target.url, target.headers, seconds);
  const cpuMicroseconds = (await serverCpu(child)) - cpuBefore;
  const wrong = result.errors + result.timeouts + (target.status === 200 ? result.non2xx : result["2xx"]);
  if (wrong > 0) throw new Error(`${target.label}: ${wrong} requests failed or answered another status than ${target.status}`);
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, cpu: cpuMicroseconds, requests: result.requests.total };
}

export async function run() {
  const child = fork(fileURLToPath(import.meta.url), [], { env: { ...process.env, BENCH_BROKER_ROLE: "server" }, stdio: "inherit" });
  try {
    const servers = await new Promise((resolve, reject) => {
      child.once("message", resolve);
      child.once("exit", (code) => reject(new Error(`the server process exited (${code})`)));
    });
    const broker = `http://127.0.0.1:${servers.broker}/registry`;
    const targets = [
      { label: "bare fastify route, same bytes", url: `http://127.0.0.1:${servers.bare}/registry`, headers: {}, status: 200 },
      { label: "broker GET /registry (200)", url: broker, headers: {}, status: 200 },
      { label: "broker GET /registry (304)", url: broker, headers: { "if-none-match": servers.etag }, status: 304 },
    ];
    for (const target of targets) await measure(child, target, WARMUP_SECONDS);
    const best = targets.map(() => undefined);
    const totals = targets.map(() => ({ cpu: 0, requests: 0 }));
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const [index, target] of targets.entries()) {
        const result = await measure(child, target, SECONDS);
        if (best[index] === undefined || result.rps > best[index].rps) best[index] = result;
        totals[index].cpu += result.cpu;
        totals[index].requests += result.requests;
      }
    }
    for (const [index, row] of best.entries()) row.cpuPerRequest = totals[index].cpu / totals[index].requests;
    const [bare, ok, notModified] = best;

    console.log(
      `load: ${CONNECTIONS} connections; ${WARMUP_SECONDS} s warmup each, then ${ROUNDS} alternating rounds of ${SECONDS} s, best kept; body ${fmt(servers.bytes / 1024, 1)} KiB (identity)`,
    );
    for (const [index, row] of best.entries()) {
      console.log(
        `${targets[index].label.padEnd(34)} ${fmt(row.rps, 0).padStart(7)} req/s  p50 ${row.p50} ms  p99 ${row.p99} ms  server CPU ${fmt(row.cpuPerRequest, 0)} µs/req (all rounds)`,
      );
    }
    console.log(`ratio 200 / bare: ${fmt(ok.rps / bare.rps)}x (goal >= ${GOAL}x)`);
    console.log(`ratio 304 / bare: ${fmt(notModified.rps / bare.rps)}x (goal >= ${GOAL}x)`);
    console.log(`server CPU per request, bare / broker 200: ${fmt(bare.cpuPerRequest / ok.cpuPerRequest)}x (the same ratio, less disturbed by other load)`);
    return { bare: bare.rps, ok: ok.rps, notModified: notModified.rps, cpuRatio: bare.cpuPerRequest / ok.cpuPerRequest };
  } finally {
    child.disconnect();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  if (process.env.BENCH_BROKER_ROLE === "server") await serve();
  else await run();
}
