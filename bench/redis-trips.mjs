// What each Redis round trip of a run costs the caller: one sidecar with its state in a
// real redis-server, and the same sidecar whose Redis is behind a loopback proxy that holds
// every chunk toward Redis 1 ms (a slow network), measured in alternating rounds in the
// same run. For a read, a confirmed write and a write under a standing approval it prints
// the p50 latency of each, the p50 the proxy added, and the bound: the run's round trips
// (counted by Redis in apps/sidecar/src/state/round-trips.integration.test.ts; with a
// plain URL there is no WAIT) times 1 ms plus 0.5 ms. The calls are sequential, one at a
// time, so the added latency is the trips' own, not a queue's.
import { createServer, Socket } from "node:net";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { fmt } from "./measure.mjs";

const HOST = "api.github.com";
const DELAY_MS = 1;
const CALLS = Number(process.env.BENCH_TRIPS_CALLS ?? 150);
const ROUNDS = 3;
// Round trips with a plain Redis URL (no replica to WAIT for): admit; admit-and-consume and the outcome; admit and the budget.
const TRIPS = { read: 1, "confirmed write": 2, "approved write": 2 };
const LIMITS = { perGrant: { points: 1e9, durationSeconds: 60 }, perIntegration: { points: 1e9, durationSeconds: 60 } };

async function delayingProxy(targetPort) {
  const sockets = new Set();
  const server = createServer((client) => {
    const upstream = new Socket();
    sockets.add(client).add(upstream);
    upstream.connect(targetPort, "127.0.0.1");
    client.on("data", (chunk) => setTimeout(() => upstream.write(chunk), DELAY_MS));
    upstream.on("data", (chunk) => client.write(chunk));
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on("close", end).on("error", end);
    upstream.on("close", end).on("error", end);
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: server.address().port,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

async function provider() {
  const { default: Fastify } = await import("fastify");
  const { createTestCertificates, createLoopbackDispatcher } = await import("@eleven-integrations/test-support");
  const { ca, key, cert } = await createTestCertificates([HOST]);
  const app = Fastify({ https: { key, cert } });
  app.get("/user/repos", async () => [{ full_name: "octocat/hello-world", private: false, html_url: "https://github.com/octocat/hello-world" }]);
  app.post("/repos/:owner/:repo/issues", async (request, reply) => reply.code(201).send({ number: 42, title: request.body.title, state: "open" }));
  await app.listen({ host: "127.0.0.1", port: 0 });
  return { app, dispatcher: createLoopbackDispatcher(ca, { [HOST]: app.server.address().port }) };
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};

export async function run() {
  const grants = await import("@eleven-integrations/grants");
  const { buildApp } = await import("@eleven-integrations/sidecar");
  const { loadRegistry } = await import("@eleven-integrations/loader");
  const { manifestFiles } = await import("@eleven-integrations/manifests");
  const { startRedisServer } = await import("@eleven-integrations/test-support");
  await grants.ready();
  const registry = loadRegistry(manifestFiles);
  const member = grants.generateMemberKeys();
  const bot = grants.generateBotKeys();
  const github = registry.get("github");
  const manifestHash = registry.manifestHash("github");
  const redis = await startRedisServer();
  const proxy = await delayingProxy(redis.port);
  const stand = await provider();
  const dir = await mkdtemp(join(tmpdir(), "bench-trips-"));
  const sidecars = {};
  try {
    for (const [name, port] of [
      ["direct", redis.port],
      ["1 ms per trip", proxy.port],
    ]) {
      const app = buildApp({
        registry,
        botKeys: bot,
        trustedMembers: [member.publicKey],
        callerToken: "bench-caller-token-0123456789abcdef",
        auditFile: join(dir, `${name.replaceAll(" ", "-")}.log`),
        redisUrl: `redis://127.0.0.1:${port}`,
        rateLimits: LIMITS,
        dispatcher: stand.dispatcher,
      });
      await app.ready();
      sidecars[name] = app;
    }
    const grant = grants.issueGrant({
      member,
      botPublicKey: bot.publicKey,
      integration: "github",
      manifestHash,
      access: "write",
      credential: { kind: "pat", token: "ghp_benchTokenNeverSent000000000000000" },
      ttlSeconds: 3600,
    });
    const opened = grants.openGrant(grant, { bot, trustedMembers: [member.publicKey] });
    const now = Math.floor(Date.now() / 1000);
    const room = { owner: { eq: "octocat" }, repo: { eq: "hello-world" }, title: "any", body: "any" };
    const budget = { runs: 10_000, per_seconds: 3600 };
    const approval = grants.issueApproval({
      member,
      botPublicKey: bot.publicKey,
      integration: "github",
      manifestHash,
      op: "issues.create",
      args: room,
      budget,
      line: grants.renderApprovalLine({ manifest: github, op: "issues.create", args: room, budget, exp: now + 3600 }),
      ttlSeconds: 3600,
      now,
    });
    const confirm = registry.operation("github", "issues.create").confirm;
    let sequence = 0;
    const bodies = {
      read: () => ({ grant, op: "repos.list" }),
      "confirmed write": () => {
        const args = { owner: "octocat", repo: "hello-world", title: `bench ${(sequence += 1)}` };
        const line = grants.renderConfirm(confirm, args);
        return { grant, op: "issues.create", args, confirmation: grants.signConfirmation({ member, grant: opened, op: "issues.create", args, line }) };
      },
      "approved write": () => ({ grant, op: "issues.create", args: { owner: "octocat", repo: "hello-world", title: `bench ${(sequence += 1)}` }, approval }),
    };
    const call = async (app, body) => {
      const started = performance.now();
      const response = await app.inject({
        method: "POST",
        url: "/v1/run",
        headers: { authorization: "Bearer bench-caller-token-0123456789abcdef" },
        remoteAddress: "127.0.0.1",
        payload: body,
      });
      const elapsed = performance.now() - started;
      if (response.json().status !== "ok") throw new Error(`the bench's run failed: ${response.body}`);
      return elapsed;
    };
    for (const [kind, makeBody] of Object.entries(bodies)) {
      const samples = { direct: [], "1 ms per trip": [] };
      for (const app of Object.values(sidecars)) for (let warm = 0; warm < 20; warm += 1) await call(app, makeBody());
      for (let round = 0; round < ROUNDS; round += 1) {
        for (let index = 0; index < CALLS; index += 1) {
          for (const [name, app] of Object.entries(sidecars)) {
            const body = makeBody();
            samples[name].push(await call(app, body));
          }
        }
      }
      const direct = median(samples.direct);
      const delayed = median(samples["1 ms per trip"]);
      const added = delayed - direct;
      const bound = TRIPS[kind] * DELAY_MS + 0.5;
      console.log(
        `${kind}: ${TRIPS[kind]} round trip(s); p50 ${fmt(direct, 3)} ms direct, ${fmt(delayed, 3)} ms with ${DELAY_MS} ms per trip; added ${fmt(added, 3)} ms (bound ${fmt(bound, 1)} ms) ${added <= bound ? "ok" : "OVER"}`,
      );
    }
  } finally {
    for (const app of Object.values(sidecars)) await app.close();
    await stand.app.close();
    await stand.dispatcher.close();
    await proxy.close();
    await redis.close();
    await rm(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
