// Many reads in flight: one sidecar (in-process store) whose provider stand-in answers every
// request after 200 ms, driven by autocannon with 100 and then 2,000 connections (each one
// request in flight), against the floor: a bare fastify route that forwards the same request
// with undici through the same loopback TLS dispatcher and answers the provider's body. Each
// server runs in a child process; its CPU per request (from its own process.cpuUsage) and its
// peak RSS are printed for both loads, with the two goals (DESIGN.md, "Cost as the work
// grows"): CPU per run at 2,000 in flight at most 1.2x that at 100, and at most 1.3x the
// floor's at 2,000; peak RSS under 400 MB; nothing refused (non-2xx or errors are printed).
import { fork } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { fmt } from "./measure.mjs";

const HOST = "api.github.com";
const DELAY_MS = 200;
const LOADS = (process.env.BENCH_IN_FLIGHT_LOADS ?? "100,2000").split(",").map(Number);
const SECONDS = Number(process.env.BENCH_IN_FLIGHT_SECONDS ?? 15);
const LIMITS = { perGrant: { points: 1e9, durationSeconds: 60 }, perIntegration: { points: 1e9, durationSeconds: 60 } };
const REPOSITORIES = Array.from({ length: 10 }, (_, index) => ({
  full_name: `octocat/repo-${index}`,
  private: false,
  html_url: `https://github.com/octocat/repo-${index}`,
}));

async function loopbackDispatcher() {
  const { createLoopbackDispatcher } = await import("@eleven-integrations/test-support");
  return createLoopbackDispatcher(process.env.BENCH_CA, { [HOST]: Number(process.env.BENCH_PROVIDER_PORT) });
}

function serveStats() {
  process.once("SIGTERM", () => process.exit(0));
  process.on("message", (message) => {
    if (message === "stats") process.send({ cpu: process.cpuUsage(), maxRssKiB: process.resourceUsage().maxRSS });
  });
  process.on("disconnect", () => process.exit(0));
}

async function provider() {
  const { default: Fastify } = await import("fastify");
  const { key, cert } = JSON.parse(process.env.BENCH_TLS);
  const app = Fastify({ https: { key, cert }, keepAliveTimeout: 60_000 });
  const body = JSON.stringify(REPOSITORIES);
  app.get("/user/repos", async (_request, reply) => {
    await new Promise((resolve) => setTimeout(resolve, DELAY_MS));
    return reply.type("application/json; charset=utf-8").send(body);
  });
  await app.listen({ host: "127.0.0.1", port: 0, backlog: 4096 });
  serveStats();
  process.send({ port: app.server.address().port });
}

async function sidecar() {
  const { startSidecar } = await import("@eleven-integrations/sidecar");
  const running = await startSidecar({ home: process.env.BENCH_HOME, port: 0, dispatcher: await loopbackDispatcher(), rateLimits: LIMITS });
  serveStats();
  process.send({ port: running.port, publicKey: running.publicKey, callerTokenFile: running.callerTokenFile });
}

/** The floor: the same hops (HTTP in, TLS request to the provider, its body back out), none of the sidecar's checks. */
async function forward() {
  const { default: Fastify } = await import("fastify");
  const dispatcher = await loopbackDispatcher();
  const { request } = await import("undici");
  const app = Fastify();
  app.post("/run", async (_incoming, reply) => {
    const answer = await request(`https://${HOST}/user/repos?sort=updated`, { dispatcher, headers: { authorization: "Bearer ghp_benchToken" } });
    const text = await answer.body.text();
    return reply.type("application/json; charset=utf-8").send(text);
  });
  await app.listen({ host: "127.0.0.1", port: 0, backlog: 4096 });
  serveStats();
  process.send({ port: app.server.address().port });
}

function startChild(role, env) {
  const child = fork(fileURLToPath(import.meta.url), [], {
    env: { ...process.env, ...env, BENCH_IN_FLIGHT_ROLE: role },
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const first = new Promise((resolve, reject) => {
    child.once("message", resolve);
    child.once("exit", (code) => reject(new Error(`${role} exited with ${code}`)));
  });
  return { child, first };
}

function ask(child, message) {
  return new Promise((resolve) => {
    child.once("message", resolve);
    child.send(message);
  });
}

const cpuUs = (before, after) => after.user + after.system - before.user - before.system;

export async function run() {
  const { default: autocannon } = await import("autocannon");
  const { generateMemberKeys, issueGrant, ready } = await import("@eleven-integrations/grants");
  const { loadRegistry } = await import("@eleven-integrations/loader");
  const { manifestFiles } = await import("@eleven-integrations/manifests");
  const { createTestCertificates } = await import("@eleven-integrations/test-support");
  await ready();
  const tls = await createTestCertificates([HOST]);
  const member = generateMemberKeys();
  const children = [];
  const home = await mkdtemp(join(tmpdir(), "bench-in-flight-"));
  try {
    const providerChild = startChild("provider", { BENCH_TLS: JSON.stringify({ key: tls.key, cert: tls.cert }) });
    children.push(providerChild.child);
    const { port: providerPort } = await providerChild.first;
    const common = { BENCH_CA: tls.ca, BENCH_PROVIDER_PORT: String(providerPort) };

    await writeFile(join(home, "trusted-members.json"), JSON.stringify([member.publicKey]));
    const sidecarChild = startChild("sidecar", { ...common, BENCH_HOME: home });
    children.push(sidecarChild.child);
    const { port, publicKey, callerTokenFile } = await sidecarChild.first;
    const grant = issueGrant({
      member,
      botPublicKey: publicKey,
      integration: "github",
      manifestHash: loadRegistry(manifestFiles).manifestHash("github"),
      access: "read",
      credential: { kind: "pat", token: "ghp_benchToken" },
      ttlSeconds: 3600,
    });
    const forwardChild = startChild("forward", common);
    children.push(forwardChild.child);
    const { port: forwardPort } = await forwardChild.first;
    const targets = [
      {
        name: "floor: fastify route forwarding with undici",
        child: forwardChild.child,
        request: { url: `http://127.0.0.1:${forwardPort}/run`, method: "POST", headers: { "content-type": "application/json" }, body: "{}" },
      },
      {
        name: "sidecar POST /v1/run",
        child: sidecarChild.child,
        request: {
          url: `http://127.0.0.1:${port}/v1/run`,
          method: "POST",
          headers: { authorization: `Bearer ${(await readFile(callerTokenFile, "utf8")).trim()}`, "content-type": "application/json" },
          body: JSON.stringify({ grant, op: "repos.list", args: { sort: "updated" } }),
        },
      },
    ];
    const results = {};
    for (const connections of LOADS) {
      for (const target of targets) {
        await autocannon({ ...target.request, connections: Math.min(connections, 100), duration: 1 });
        const before = await ask(target.child, "stats");
        const result = await autocannon({ ...target.request, connections, duration: SECONDS, timeout: 30 });
        const after = await ask(target.child, "stats");
        const measured = {
          requests: result.requests.total,
          refused: result.non2xx + result.errors + result.timeouts,
          cpuUsPerRun: cpuUs(before.cpu, after.cpu) / Math.max(1, result.requests.total),
          p50: result.latency.p50,
          p99: result.latency.p99,
          rssMB: (after.maxRssKiB * 1024) / 1e6,
        };
        results[`${target.name}@${connections}`] = measured;
        console.log(
          `${target.name.padEnd(44)} ${String(connections).padStart(5)} in flight: ${measured.requests} runs, ${measured.refused} refused, CPU ${fmt(measured.cpuUsPerRun, 0)} µs/run, p50 ${measured.p50} ms, p99 ${measured.p99} ms, peak RSS ${fmt(measured.rssMB, 0)} MB`,
        );
      }
    }
    const [low, high] = LOADS;
    const sidecarLow = results[`sidecar POST /v1/run@${low}`];
    const sidecarHigh = results[`sidecar POST /v1/run@${high}`];
    const floorHigh = results[`floor: fastify route forwarding with undici@${high}`];
    if (sidecarLow !== undefined && sidecarHigh !== undefined && floorHigh !== undefined) {
      const growth = sidecarHigh.cpuUsPerRun / sidecarLow.cpuUsPerRun;
      const againstFloor = sidecarHigh.cpuUsPerRun / floorHigh.cpuUsPerRun;
      console.log(`sidecar CPU per run at ${high} in flight against ${low}: ${fmt(growth)}x (goal at most 1.2x) ${growth <= 1.2 ? "ok" : "OVER"}`);
      console.log(
        `sidecar CPU per run at ${high} in flight against the floor's: ${fmt(againstFloor)}x (goal at most 1.3x) ${againstFloor <= 1.3 ? "ok" : "OVER"}`,
      );
      console.log(`sidecar peak RSS: ${fmt(sidecarHigh.rssMB, 0)} MB (goal under 400 MB) ${sidecarHigh.rssMB < 400 ? "ok" : "OVER"}`);
    }
  } finally {
    for (const child of children) child.kill("SIGTERM");
    await rm(home, { recursive: true, force: true });
  }
}

const role = process.env.BENCH_IN_FLIGHT_ROLE;
if (role === "provider") await provider();
else if (role === "sidecar") await sidecar();
else if (role === "forward") await forward();
else if (import.meta.url === `file://${process.argv[1]}`) await run();
