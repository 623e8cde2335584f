// pnpm soak [--duration 3m|180s|180000ms]: three sidecars (bench/soak-sidecar.mjs, each its
// own process) sharing one real redis-server, under mixed reads (github repos.list) and
// confirmed writes (issues.create, each signed by the member for its exact line), through a
// loopback TLS stand-in for api.github.com that counts every write it receives. Meanwhile
// Redis is killed and started again (empty, on the same port) every 45 s, and the third
// sidecar is stopped (SIGTERM) and started again every 60 s. At the end it prints the runs,
// errors by code, writes the provider received vs writes confirmed (must be equal: no write
// is sent without its answer, and none is answered ok without being sent), each sidecar's
// resident memory at start and end (from its /metrics), client-side p50/p99, and whether
// every audit journal verifies with `integrations audit verify`. Loopback only; exits 1 when
// sent != confirmed or a journal does not verify.
import { fork, spawnSync } from "node:child_process";
import { copyFile, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import Fastify from "fastify";
import { generateMemberKeys, issueGrant, ready, signConfirmation } from "@eleven-integrations/grants";
import { loadRegistry } from "@eleven-integrations/loader";
import { manifestFiles } from "@eleven-integrations/manifests";
import { createTestCertificates, startRedisServer } from "@eleven-integrations/test-support";

const here = dirname(fileURLToPath(import.meta.url));
const WORKERS = 6;
const WRITE_SHARE = 0.3;
const REDIS_RESTART_EVERY_MS = 45_000;
const SIDECAR_RESTART_EVERY_MS = 60_000;

function parseDuration(argv) {
  const index = argv.indexOf("--duration");
  const text = index >= 0 ? argv[index + 1] : argv.find((arg) => arg.startsWith("--duration="))?.slice(11);
  if (text === undefined) return 180_000;
  const match = /^([0-9]+)(ms|s|m)?$/.exec(text);
  if (match === null) {
    console.error(`soak: --duration must be a number with ms, s or m (default 3m), not ${JSON.stringify(text)}`);
    process.exit(2);
  }
  const unit = { ms: 1, s: 1000, m: 60_000 }[match[2] ?? "s"];
  return Number(match[1]) * unit;
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const percentile = (sorted, p) => (sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]);

async function startProvider(tls) {
  // GitHub's documented answers for the two calls: GET /user/repos (200, an array) and
  // POST /repos/{owner}/{repo}/issues (201, the issue): https://docs.github.com/en/rest/issues/issues#create-an-issue
  const app = Fastify({ https: { key: tls.key, cert: tls.cert } });
  const counts = { reads: 0, writes: 0 };
  app.get("/user/repos", async () => {
    counts.reads += 1;
    return [
      {
        full_name: "octocat/hello-world",
        private: false,
        description: "soak",
        html_url: "https://github.com/octocat/hello-world",
        default_branch: "main",
        open_issues_count: 1,
        pushed_at: "2024-01-01T00:00:00Z",
      },
    ];
  });
  app.get("/repos/:owner/:repo", async (request) => ({
    full_name: `${request.params.owner}/${request.params.repo}`,
    private: false,
    visibility: "public",
    html_url: `https://github.com/${request.params.owner}/${request.params.repo}`,
    default_branch: "main",
    open_issues_count: 1,
  }));
  app.post("/repos/:owner/:repo/issues", async (request, reply) => {
    counts.writes += 1;
    // A little provider time, so writes are in flight when a sidecar is stopped.
    await sleep(20);
    return reply.code(201).send({
      id: counts.writes,
      number: counts.writes,
      title: request.body.title,
      state: "open",
      html_url: `https://github.com/octocat/hello-world/issues/${counts.writes}`,
    });
  });
  await app.listen({ host: "127.0.0.1", port: 0 });
  return { app, counts, port: app.server.address().port };
}

function startSidecarChild(env) {
  const child = fork(join(here, "soak-sidecar.mjs"), [], { env: { ...process.env, ...env }, stdio: ["ignore", "ignore", "inherit", "ipc"] });
  const first = new Promise((resolve, reject) => {
    child.once("message", resolve);
    child.once("exit", (code) => reject(new Error(`sidecar exited with ${code}`)));
  });
  return { child, first };
}

async function residentBytes(metricsPort) {
  const text = await fetch(`http://127.0.0.1:${metricsPort}/metrics`).then((response) => response.text());
  const match = /^process_resident_memory_bytes (\d+(?:\.\d+)?(?:e\+\d+)?)$/m.exec(text);
  return match === null ? NaN : Number(match[1]);
}

const mib = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

export async function soak(durationMs) {
  await ready();
  const registry = loadRegistry(manifestFiles);
  const tls = await createTestCertificates(["api.github.com"]);
  const member = generateMemberKeys();
  const redis = await startRedisServer();
  const provider = await startProvider(tls);
  const homes = [];
  const sidecars = [];
  const cleanup = async () => {
    for (const sidecar of sidecars) sidecar.child.kill("SIGKILL");
    await provider.app.close();
    await redis.close();
    for (const home of homes) await rm(home, { recursive: true, force: true });
  };
  try {
    // One bot, three sidecars: the second and third get the first's bot key and caller token.
    for (let index = 0; index < 3; index += 1) {
      const home = await mkdtemp(join(tmpdir(), "eleven-soak-"));
      homes.push(home);
      await writeFile(join(home, "trusted-members.json"), JSON.stringify([member.publicKey]));
      if (index > 0) {
        for (const file of ["bot-key.json", "caller-token"]) await copyFile(join(homes[0], file), join(home, file));
      }
      const env = { SOAK_HOME: home, SOAK_CA: tls.ca, SOAK_PROVIDER_PORT: String(provider.port), SOAK_REDIS_URL: redis.url, SOAK_PORT: "0" };
      const started = startSidecarChild(env);
      const info = await started.first;
      sidecars.push({ ...info, env: { ...env, SOAK_PORT: String(info.port) }, child: started.child, up: true });
    }
    const publicKeys = new Set(sidecars.map((sidecar) => sidecar.publicKey));
    if (publicKeys.size !== 1) throw new Error("soak: the three sidecars are not one bot (bot key files not shared)");
    const callerToken = (await readFile(sidecars[0].callerTokenFile, "utf8")).trim();
    const grantOf = (access) =>
      issueGrant({
        member,
        botPublicKey: sidecars[0].publicKey,
        integration: "github",
        manifestHash: registry.manifestHash("github"),
        access,
        credential: { kind: "pat", token: "ghp_soakTokenNeverInALabel0123456789" },
        ttlSeconds: 3600,
      });
    const readGrant = grantOf("read");
    const writeGrant = grantOf("write");
    const rssStart = await Promise.all(sidecars.map((sidecar) => residentBytes(sidecar.metricsPort)));

    const stats = { runs: 0, ok: 0, errors: new Map(), writesConfirmed: 0, latencies: [] };
    const countError = (code) => stats.errors.set(code, (stats.errors.get(code) ?? 0) + 1);
    const post = async (sidecar, body) => {
      const response = await fetch(`http://127.0.0.1:${sidecar.port}/v1/run`, {
        method: "POST",
        headers: { authorization: `Bearer ${callerToken}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      return { statusCode: response.status, body: await response.json() };
    };
    const deadline = Date.now() + durationMs;
    let sequence = 0;
    const oneRun = async (worker) => {
      const candidates = sidecars.filter((sidecar) => sidecar.up);
      const sidecar = candidates[(sequence += 1) % candidates.length];
      const started = performance.now();
      try {
        if (Math.random() < WRITE_SHARE) {
          const args = { owner: "octocat", repo: "hello-world", title: `soak ${worker}-${sequence}` };
          const asked = await post(sidecar, { grant: writeGrant, op: "issues.create", args });
          if (asked.body.status !== "confirmation_required") {
            countError(asked.body.status === "error" ? `write_ask:${asked.body.error.code}` : `write_ask:http_${asked.statusCode}`);
            return;
          }
          const line = asked.body.preview === undefined ? asked.body.confirm : `${asked.body.confirm}\n${asked.body.preview}`;
          const confirmation = signConfirmation({ member, grant: { gid: asked.body.gid, iss: member.publicKey }, op: "issues.create", args, line });
          const answer = await post(sidecar, { grant: writeGrant, op: "issues.create", args, confirmation });
          stats.runs += 1;
          if (answer.body.status === "ok") {
            stats.ok += 1;
            stats.writesConfirmed += 1;
          } else countError(answer.body.status === "error" ? answer.body.error.code : `http_${answer.statusCode}`);
        } else {
          const answer = await post(sidecar, { grant: readGrant, op: "repos.list" });
          stats.runs += 1;
          if (answer.body.status === "ok") stats.ok += 1;
          else countError(answer.body.status === "error" ? answer.body.error.code : `http_${answer.statusCode}`);
        }
        stats.latencies.push(performance.now() - started);
      } catch (error) {
        stats.runs += 1;
        countError(`client:${error.cause?.code ?? error.name}`);
        await sleep(50);
      }
    };
    const workers = Array.from({ length: WORKERS }, async (_, worker) => {
      while (Date.now() < deadline) await oneRun(worker);
    });

    const chaos = (async () => {
      // Short soaks still see both: at least three Redis restarts and two sidecar restarts.
      const redisEvery = Math.min(REDIS_RESTART_EVERY_MS, durationMs / 4);
      const sidecarEvery = Math.min(SIDECAR_RESTART_EVERY_MS, durationMs / 3);
      let nextRedis = Date.now() + redisEvery;
      let nextSidecar = Date.now() + sidecarEvery;
      const events = { redisRestarts: 0, sidecarRestarts: 0 };
      while (Date.now() < deadline - 5_000) {
        await sleep(500);
        if (Date.now() >= nextRedis) {
          await redis.stop();
          await sleep(2_000);
          await redis.start();
          events.redisRestarts += 1;
          nextRedis = Date.now() + redisEvery;
        }
        if (Date.now() >= nextSidecar) {
          const third = sidecars[2];
          third.up = false;
          const exited = new Promise((resolve) => third.child.once("exit", (code) => resolve(code)));
          third.child.kill("SIGTERM");
          const code = await exited;
          if (code !== 0) countError(`sidecar_exit_${code}`);
          await sleep(2_000);
          const started = startSidecarChild(third.env);
          const info = await started.first;
          Object.assign(third, info, { child: started.child, up: true });
          events.sidecarRestarts += 1;
          nextSidecar = Date.now() + sidecarEvery;
        }
      }
      return events;
    })();
    await Promise.all(workers);
    const events = await chaos;
    const rssEnd = await Promise.all(sidecars.map((sidecar) => residentBytes(sidecar.metricsPort)));
    for (const sidecar of sidecars) {
      const exited = new Promise((resolve) => sidecar.child.once("exit", resolve));
      sidecar.child.kill("SIGTERM");
      await exited;
    }
    sidecars.length = 0;

    const cli = join(here, "..", "packages", "cli", "dist", "bin.js");
    const verified = homes.map((home) => {
      const result = spawnSync(process.execPath, [cli, "audit", "verify", join(home, "audit.log")], { encoding: "utf8" });
      return { home, ok: result.status === 0, output: (result.stdout + result.stderr).trim() };
    });
    const sorted = [...stats.latencies].sort((a, b) => a - b);
    const errorLines = [...stats.errors.entries()].sort((a, b) => b[1] - a[1]).map(([code, count]) => `    ${code}: ${count}`);
    console.log(
      `soak: ${(durationMs / 1000).toFixed(0)} s, 3 sidecars on one redis-server, ${WORKERS} workers, ${Math.round(WRITE_SHARE * 100)}% confirmed writes`,
    );
    console.log(`  chaos: Redis restarted ${events.redisRestarts} times, sidecar 3 stopped and started ${events.sidecarRestarts} times`);
    console.log(`  runs: ${stats.runs} (${stats.ok} ok)`);
    console.log(`  errors by code:${errorLines.length === 0 ? " none" : `\n${errorLines.join("\n")}`}`);
    console.log(
      `  writes sent (counted at the provider stand-in): ${provider.counts.writes}; confirmed (answered ok): ${stats.writesConfirmed}; ${provider.counts.writes === stats.writesConfirmed ? "equal" : "NOT EQUAL"}`,
    );
    console.log(`  RSS start: ${rssStart.map(mib).join(", ")}; end: ${rssEnd.map(mib).join(", ")} (sidecar 3 restarted)`);
    console.log(`  latency (client side, answered runs): p50 ${percentile(sorted, 50).toFixed(1)} ms, p99 ${percentile(sorted, 99).toFixed(1)} ms`);
    for (const { home, ok, output } of verified)
      console.log(`  audit ${join(home, "audit.log")}: ${ok ? "verifies" : "DOES NOT VERIFY"} (${output.split("\n")[0]})`);
    return provider.counts.writes === stats.writesConfirmed && verified.every((entry) => entry.ok);
  } finally {
    await cleanup();
  }
}

const passed = await soak(parseDuration(process.argv.slice(2)));
process.exit(passed ? 0 : 1);
