// The sidecar's POST /v1/run (a read, github repos.list, through a loopback TLS stand-in for
// api.github.com) under autocannon, against the floor: a bare fastify route that calls the
// executor in-process with the same op and credential and answers its envelope, driven the
// same way, so both paths make the same loopback hops (load generator -> HTTP server ->
// executor -> TLS provider). What the ratio measures is the sidecar's own work: the loopback
// and caller checks, body validation, opening the grant (cached), the access checks, the rate
// limits, the audit line. Goal: at least 0.8x with the in-process store. The same sidecar with
// its state in a real redis-server (started here) is printed too, with p50/p99 for each.
// Every server runs in a child process (this file, forked), so the load generator, the
// servers and the provider do not share an event loop. The targets are warmed up, then
// measured in alternating rounds; each keeps its best round.
import { fork } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { fmt } from "./measure.mjs";

const HOST = "api.github.com";
const CONNECTIONS = 10;
const ROUNDS = Number(process.env.BENCH_SIDECAR_ROUNDS ?? 3);
const ROUND_SECONDS = 3;
const WARMUP_SECONDS = 1;
// The bench makes thousands of runs a second on one grant: limits far above that, still counted on every run.
const BENCH_RATE_LIMITS = { perGrant: { points: 1e9, durationSeconds: 60 }, perIntegration: { points: 1e9, durationSeconds: 60 } };
const REPOSITORIES = Array.from({ length: 10 }, (_, index) => ({
  full_name: `octocat/repo-${index}`,
  private: index % 2 === 0,
  description: `Repository number ${index}`,
  html_url: `https://github.com/octocat/repo-${index}`,
  default_branch: "main",
  open_issues_count: index,
  pushed_at: "2024-01-01T00:00:00Z",
  node_id: "dropped by pick",
}));

async function loopbackDispatcher(ca, port) {
  const { createLoopbackDispatcher } = await import("@eleven-integrations/test-support");
  return createLoopbackDispatcher(ca, { [HOST]: port });
}

// --- child roles ---------------------------------------------------------------------------

function serveStats(extra) {
  // Exit through process.exit, so a --cpu-prof profile is written.
  process.once("SIGTERM", () => process.exit(0));
  process.on("message", (message) => {
    if (message === "stats") process.send({ cpu: process.cpuUsage(), maxRssKiB: process.resourceUsage().maxRSS, ...extra() });
  });
  process.on("disconnect", () => process.exit(0));
}

async function provider() {
  const { default: Fastify } = await import("fastify");
  const { key, cert } = JSON.parse(process.env.BENCH_TLS);
  const app = Fastify({ https: { key, cert } });
  const body = JSON.stringify(REPOSITORIES);
  let served = 0;
  app.get("/user/repos", (_request, reply) => {
    served += 1;
    return reply.type("application/json; charset=utf-8").send(body);
  });
  await app.listen({ host: "127.0.0.1", port: 0 });
  serveStats(() => ({ served }));
  process.send({ port: app.server.address().port });
}

async function sidecar() {
  const { startSidecar } = await import("@eleven-integrations/sidecar");
  const dispatcher = await loopbackDispatcher(process.env.BENCH_CA, Number(process.env.BENCH_PROVIDER_PORT));
  const redisUrl = process.env.BENCH_REDIS_URL;
  const running = await startSidecar({
    home: process.env.BENCH_HOME,
    port: 0,
    dispatcher,
    rateLimits: BENCH_RATE_LIMITS,
    ...(redisUrl === undefined || redisUrl === "" ? {} : { redisUrl }),
  });
  serveStats(() => ({}));
  process.send({ port: running.port, publicKey: running.publicKey, callerTokenFile: running.callerTokenFile });
}

/** The floor: a bare fastify route that runs the op with the executor in-process, nothing else. */
async function bare() {
  const { default: Fastify } = await import("fastify");
  const { createExecutor, serializeEnvelope } = await import("@eleven-integrations/executor");
  const { loadRegistry } = await import("@eleven-integrations/loader");
  const { manifestFiles } = await import("@eleven-integrations/manifests");
  const dispatcher = await loopbackDispatcher(process.env.BENCH_CA, Number(process.env.BENCH_PROVIDER_PORT));
  const executor = createExecutor({ registry: loadRegistry(manifestFiles), dispatcher });
  const credential = { token: process.env.BENCH_TOKEN };
  const app = Fastify();
  app.post("/run", async (request, reply) => {
    const { op, args } = request.body;
    const envelope = await executor.run({ integration: "github", op, args, credential });
    return reply.type("application/json; charset=utf-8").send(serializeEnvelope(envelope));
  });
  await app.listen({ host: "127.0.0.1", port: 0 });
  serveStats(() => ({}));
  process.send({ port: app.server.address().port });
}

// --- the parent ----------------------------------------------------------------------------

function startChild(role, env) {
  // BENCH_CPU_PROF=<dir> profiles the sidecars and the floor (node --cpu-prof), to see where their time goes.
  const profile =
    (role === "sidecar" || role === "bare") && process.env.BENCH_CPU_PROF !== undefined ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
  const child = fork(fileURLToPath(import.meta.url), [], {
    env: { ...process.env, ...env, BENCH_SIDECAR_ROLE: role },
    execArgv: [...process.execArgv, ...profile],
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

const cpuMs = (before, after) => (after.user + after.system - before.user - before.system) / 1000;

export async function run() {
  const { default: autocannon } = await import("autocannon");
  const { generateMemberKeys, issueGrant, ready } = await import("@eleven-integrations/grants");
  const { loadRegistry } = await import("@eleven-integrations/loader");
  const { manifestFiles } = await import("@eleven-integrations/manifests");
  const { createTestCertificates, startRedisServer } = await import("@eleven-integrations/test-support");
  const cannon = (options, seconds) => autocannon({ ...options, connections: CONNECTIONS, duration: seconds });
  await ready();
  const registry = loadRegistry(manifestFiles);
  const tls = await createTestCertificates([HOST]);
  const member = generateMemberKeys();
  const homes = [];
  const children = [];
  let redis;
  try {
    try {
      if (process.env.BENCH_SIDECAR_REDIS === "0") throw new Error("BENCH_SIDECAR_REDIS=0");
      redis = await startRedisServer();
    } catch (error) {
      console.log(`Redis store: not measured (${error.message})`);
    }
    const providerChild = startChild("provider", { BENCH_TLS: JSON.stringify({ key: tls.key, cert: tls.cert }) });
    children.push(providerChild.child);
    const { port: providerPort } = await providerChild.first;
    const common = { BENCH_CA: tls.ca, BENCH_PROVIDER_PORT: String(providerPort) };

    const startSidecarTarget = async (name, redisUrl) => {
      const home = await mkdtemp(join(tmpdir(), "sidecar-bench-"));
      homes.push(home);
      await writeFile(join(home, "trusted-members.json"), JSON.stringify([member.publicKey]));
      const started = startChild("sidecar", { ...common, BENCH_HOME: home, BENCH_REDIS_URL: redisUrl ?? "" });
      children.push(started.child);
      const { port, publicKey, callerTokenFile } = await started.first;
      const callerToken = (await readFile(callerTokenFile, "utf8")).trim();
      const grant = issueGrant({
        member,
        botPublicKey: publicKey,
        integration: "github",
        manifestHash: registry.manifestHash("github"),
        access: "read",
        credential: { kind: "pat", token: "ghp_benchToken" },
        ttlSeconds: 3600,
      });
      return {
        name,
        child: started.child,
        request: {
          url: `http://127.0.0.1:${port}/v1/run`,
          method: "POST",
          headers: { authorization: `Bearer ${callerToken}`, "content-type": "application/json" },
          body: JSON.stringify({ grant, op: "repos.list", args: { sort: "updated" } }),
        },
      };
    };
    const bareChild = startChild("bare", { ...common, BENCH_TOKEN: "ghp_benchToken" });
    children.push(bareChild.child);
    const { port: barePort } = await bareChild.first;
    const targets = [
      {
        name: "floor: bare fastify route + executor.run",
        child: bareChild.child,
        request: {
          url: `http://127.0.0.1:${barePort}/run`,
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ op: "repos.list", args: { sort: "updated" } }),
        },
      },
      await startSidecarTarget("sidecar POST /v1/run, in-process store"),
      ...(redis === undefined ? [] : [await startSidecarTarget("sidecar POST /v1/run, Redis store", redis.url)]),
    ];
    for (const target of targets) {
      const check = await fetch(target.request.url, target.request).then((response) => response.json());
      if (check.status !== "ok" || check.data.length !== REPOSITORIES.length) throw new Error(`${target.name} answered ${JSON.stringify(check)}`);
      target.total = 1 + (await cannon(target.request, WARMUP_SECONDS)).requests.total;
      target.best = undefined;
      target.rounds = [];
    }

    for (let round = 0; round < ROUNDS; round += 1) {
      for (const target of targets) {
        const before = await ask(target.child, "stats");
        const result = await cannon(target.request, ROUND_SECONDS);
        const after = await ask(target.child, "stats");
        if (result.errors > 0 || result.non2xx > 0)
          throw new Error(`${target.name}: autocannon saw ${result.errors} errors and ${result.non2xx} non-2xx answers`);
        target.total += result.requests.total;
        const measured = {
          rps: result.requests.average,
          p50: result.latency.p50,
          p99: result.latency.p99,
          cpuUs: (cpuMs(before.cpu, after.cpu) * 1000) / result.requests.total,
          rssMiB: after.maxRssKiB / 1024,
        };
        if (target.best === undefined || measured.rps > target.best.rps) target.best = measured;
        target.rounds.push(measured);
      }
    }

    for (const target of targets) {
      const cpu = target.rounds.map((round) => round.cpuUs).sort((a, b) => a - b);
      target.median = { cpuUs: cpu[Math.floor(cpu.length / 2)] };
    }
    const [floor, local, shared] = targets;
    console.log(
      `load: ${CONNECTIONS} connections, best of ${ROUNDS} alternating ${ROUND_SECONDS} s rounds, read op github repos.list (${REPOSITORIES.length} repositories, picked) from a loopback TLS provider`,
    );
    for (const target of targets) {
      const best = target.best;
      console.log(
        `${target.name.padEnd(42)} ${fmt(best.rps, 0).padStart(6)} req/s, p50 ${best.p50} ms, p99 ${best.p99} ms, server CPU ${fmt(best.cpuUs, 0)} µs/req, peak RSS ${fmt(best.rssMiB, 1)} MiB`,
      );
    }
    if (process.env.BENCH_CPU_PROF !== undefined) for (const target of targets) console.log(`${target.name} served ${target.total}`);
    console.log(`ratio, in-process store: ${fmt(local.best.rps / floor.best.rps)}x (goal >= 0.8x)`);
    if (shared !== undefined) console.log(`ratio, Redis store:      ${fmt(shared.best.rps / floor.best.rps)}x (goal >= 0.7x)`);
    // Each server is one event loop driven to saturation, so its req/s is about 1 / its CPU per request;
    // the CPU ratio says the same as req/s without the neighbours' share of the two cores in it.
    const cpuRatio = (target) => fmt(floor.median.cpuUs / target.median.cpuUs);
    console.log(
      `server CPU per request against the floor's (median of the rounds): in-process ${cpuRatio(local)}x${shared === undefined ? "" : `, Redis ${cpuRatio(shared)}x`}`,
    );
  } finally {
    for (const child of children) child.kill("SIGTERM");
    await redis?.close();
    for (const home of homes) await rm(home, { recursive: true, force: true });
  }
}

const role = process.env.BENCH_SIDECAR_ROLE;
if (import.meta.url === `file://${process.argv[1]}`) {
  if (role === "provider") await provider();
  else if (role === "sidecar") await sidecar();
  else if (role === "bare") await bare();
  else await run();
}
