// The sidecar's POST /v1/run (a read, through a loopback TLS stand-in for api.github.com)
// under autocannon, against calling the executor in-process with the same grant and op at
// the same concurrency: the floor is what running the op costs without the sidecar around
// it. Goal: at least 0.8x. Also the sidecar's peak RSS under that load.
// The sidecar and the provider stand-in run in child processes (this file, forked), so the
// load generator, the sidecar and the provider do not share an event loop. Each process's
// CPU time per request is printed too: on a machine with few cores the sidecar path pays for
// the load generator's HTTP client as well, which the in-process floor does not have.
import { fork } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { fmt } from "./measure.mjs";

// The packages the parent needs are imported in run(), so the forked sidecar loads only
// what a sidecar loads and its peak RSS is its own.

const HOST = "api.github.com";
const CONNECTIONS = 10;
const SECONDS = 4;
const WARMUP_SECONDS = 1;
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

async function testCertificates() {
  const { createTestCertificates } = await import("@eleven-integrations/test-support");
  return createTestCertificates([HOST]);
}

/** Connects every api.github.com connection to the stand-in on 127.0.0.1, TLS verified for api.github.com against the bench CA. */
async function loopbackDispatcher(ca, port) {
  const { createLoopbackDispatcher } = await import("@eleven-integrations/test-support");
  return createLoopbackDispatcher(ca, { [HOST]: port });
}

// --- child roles ---------------------------------------------------------------------------

/** Answers the parent's "stats" with CPU time, peak RSS and `extra()`; exits when the parent goes. */
function serveStats(extra) {
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
  app.get("/user/repos", (request, reply) => {
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
  const running = await startSidecar({ home: process.env.BENCH_HOME, port: 0, dispatcher });
  serveStats(() => ({}));
  process.send({ port: running.port, publicKey: running.publicKey, callerTokenFile: running.callerTokenFile });
}

// --- the parent ----------------------------------------------------------------------------

function startChild(role, env) {
  const child = fork(fileURLToPath(import.meta.url), [], { env: { ...process.env, ...env, BENCH_SIDECAR_ROLE: role }, stdio: ["ignore", "inherit", "inherit", "ipc"] });
  const first = new Promise((resolve, reject) => {
    child.once("message", resolve);
    child.once("exit", (code) => reject(new Error(`${role} exited with ${code}`)));
  });
  return { child, first };
}

/** Sends `message` and resolves with the child's next message. */
function ask(child, message) {
  return new Promise((resolve) => {
    child.once("message", resolve);
    child.send(message);
  });
}

/** Requests per second of `concurrency` loops calling `call` for `seconds`. */
async function inProcessThroughput(call, concurrency, seconds) {
  const deadline = performance.now() + seconds * 1000;
  let completed = 0;
  const worker = async () => {
    while (performance.now() < deadline) {
      const envelope = await call();
      if (envelope.status !== "ok") throw new Error(`in-process run failed: ${JSON.stringify(envelope)}`);
      completed += 1;
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  return completed / ((performance.now() - started) / 1000);
}

const cpuMs = (before, after) => (after.user + after.system - before.user - before.system) / 1000;

export async function run() {
  const { default: autocannon } = await import("autocannon");
  const { createExecutor } = await import("@eleven-integrations/executor");
  const { generateMemberKeys, issueGrant, openGrant, ready } = await import("@eleven-integrations/grants");
  const { loadRegistry } = await import("@eleven-integrations/loader");
  const { manifestFiles } = await import("@eleven-integrations/manifests");
  const cannon = (options, seconds) => autocannon({ ...options, connections: CONNECTIONS, duration: seconds });
  await ready();
  const registry = loadRegistry(manifestFiles);
  const tls = await testCertificates();
  const home = await mkdtemp(join(tmpdir(), "sidecar-bench-"));
  const member = generateMemberKeys();
  await writeFile(join(home, "trusted-members.json"), JSON.stringify([member.publicKey]));

  const providerChild = startChild("provider", { BENCH_TLS: JSON.stringify({ key: tls.key, cert: tls.cert }) });
  const { port: providerPort } = await providerChild.first;
  const sidecarChild = startChild("sidecar", { BENCH_CA: tls.ca, BENCH_PROVIDER_PORT: String(providerPort), BENCH_HOME: home });
  let dispatcher;
  try {
    const { port, publicKey, callerTokenFile } = await sidecarChild.first;
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
    const request = {
      url: `http://127.0.0.1:${port}/v1/run`,
      method: "POST",
      headers: { authorization: `Bearer ${callerToken}`, "content-type": "application/json" },
      body: JSON.stringify({ grant, op: "repos.list", args: { sort: "updated" } }),
    };
    const check = await fetch(request.url, request).then((response) => response.json());
    if (check.status !== "ok" || check.data.length !== REPOSITORIES.length) throw new Error(`sidecar answered ${JSON.stringify(check)}`);

    // The floor: the same op, the same credential, in this process, through the same kind of dispatcher.
    dispatcher = await loopbackDispatcher(tls.ca, providerPort);
    const executor = createExecutor({ registry, dispatcher });
    const opened = openGrant(grant, { bot: JSON.parse(await readFile(join(home, "bot-key.json"), "utf8")), trustedMembers: [member.publicKey] });
    const runInProcess = () => executor.run({ integration: opened.integration, op: "repos.list", args: { sort: "updated" }, credential: { token: opened.cred.token } });

    const stats = async () => ({ self: process.cpuUsage(), sidecar: await ask(sidecarChild.child, "stats"), provider: await ask(providerChild.child, "stats") });
    const perRequestUs = (before, after, name, count) => fmt((cpuMs(before[name].cpu ?? before[name], after[name].cpu ?? after[name]) * 1000) / count, 0);

    await cannon(request, WARMUP_SECONDS);
    await inProcessThroughput(runInProcess, CONNECTIONS, WARMUP_SECONDS);
    const s0 = await stats();
    const result = await cannon(request, SECONDS);
    const s1 = await stats();
    const floorStarted = performance.now();
    const floor = await inProcessThroughput(runInProcess, CONNECTIONS, SECONDS);
    const floorCount = (floor * (performance.now() - floorStarted)) / 1000;
    const s2 = await stats();
    if (result.errors > 0 || result.non2xx > 0) throw new Error(`autocannon saw ${result.errors} errors and ${result.non2xx} non-2xx answers`);
    const upstream = s1.provider.served - s0.provider.served;
    // Calls still in flight when autocannon stops reach the provider without being counted.
    if (upstream < result.requests.total || upstream > result.requests.total + CONNECTIONS) throw new Error(`the provider served ${upstream} requests for ${result.requests.total} sidecar calls`);

    const sidecarRps = result.requests.average;
    const count = result.requests.total;
    console.log(`load: ${CONNECTIONS} concurrent, ${SECONDS} s each, read op github repos.list (${REPOSITORIES.length} repositories, picked) from a loopback TLS provider`);
    console.log(`sidecar POST /v1/run (autocannon):    ${fmt(sidecarRps, 0)} req/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms`);
    console.log(`floor, executor.run in-process:       ${fmt(floor, 0)} req/s`);
    console.log(`ratio: ${fmt(sidecarRps / floor)}x (goal >= 0.8x)`);
    console.log(`sidecar peak RSS under load: ${fmt(s1.sidecar.maxRssKiB / 1024, 1)} MiB`);
    console.log(
      `CPU per request, sidecar path: autocannon ${perRequestUs(s0, s1, "self", count)} µs, sidecar ${perRequestUs(s0, s1, "sidecar", count)} µs, provider ${perRequestUs(s0, s1, "provider", count)} µs; ` +
        `floor: executor ${perRequestUs(s1, s2, "self", floorCount)} µs, provider ${perRequestUs(s1, s2, "provider", floorCount)} µs`,
    );
  } finally {
    await dispatcher?.close();
    sidecarChild.child.kill("SIGTERM");
    providerChild.child.kill("SIGTERM");
    await rm(home, { recursive: true, force: true });
  }
}

const role = process.env.BENCH_SIDECAR_ROLE;
if (import.meta.url === `file://${process.argv[1]}`) {
  if (role === "provider") await provider();
  else if (role === "sidecar") await sidecar();
  else await run();
}
