// The broker on Redis Sentinel: a real primary and replica (redis-server) watched by a real
// redis-sentinel (Debian's package, installed by scripts/system-packages.mjs), a failover
// forced with SENTINEL FAILOVER, and the broker keeping revocations on the new primary
// without a restart.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generateMemberKeys, ready, signRevocation } from "@eleven-integrations/grants";
import { startRedisServer, type TestRedisServer } from "@eleven-integrations/test-support";
import type { FastifyInstance } from "fastify";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testApp } from "../__fixtures__/test-app.js";
import { BrokerConfigError } from "../config/config.js";

const NAME = "eleven-test";
let primary: TestRedisServer;
let replica: TestRedisServer;
let sentinel: ChildProcess;
let sentinelPort: number;
let folder: string;
let app: FastifyInstance;

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
async function until(check: () => Promise<boolean>, what: string, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return;
    await sleep(100);
  }
  throw new Error(`timed out waiting until ${what}`);
}
const revocation = () => signRevocation({ member: generateMemberKeys(), grant: `eg1.${randomBytes(120).toString("base64url")}` });
const post = (body: unknown) => app.inject({ method: "POST", url: "/revocations", headers: { "content-type": "application/json" }, payload: JSON.stringify(body) });

beforeAll(async () => {
  await ready();
  primary = await startRedisServer();
  replica = await startRedisServer();
  const toReplica = new Redis(replica.url);
  await toReplica.replicaof("127.0.0.1", primary.port);
  await until(async () => (await toReplica.info("replication")).includes("master_link_status:up"), "the replica is in sync");
  await toReplica.quit();
  folder = mkdtempSync(join(tmpdir(), "eleven-sentinel-"));
  sentinelPort = await freePort();
  const config = join(folder, "sentinel.conf");
  writeFileSync(
    config,
    [
      `port ${sentinelPort}`,
      "bind 127.0.0.1",
      `dir ${folder}`,
      `sentinel monitor ${NAME} 127.0.0.1 ${primary.port} 1`,
      `sentinel down-after-milliseconds ${NAME} 1000`,
      `sentinel failover-timeout ${NAME} 5000`,
      "",
    ].join("\n"),
  );
  const binary = spawnSync("sh", ["-c", "command -v redis-sentinel"], { encoding: "utf8" }).stdout.trim();
  sentinel = spawn(binary, [config], { stdio: "ignore" });
  const ask = new Redis({ port: sentinelPort, host: "127.0.0.1", lazyConnect: true, maxRetriesPerRequest: 0 });
  ask.on("error", () => undefined);
  await until(async () => {
    if (ask.status !== "ready") await ask.connect().catch(() => undefined);
    const replicas = (await ask.call("SENTINEL", "REPLICAS", NAME)) as unknown[];
    return replicas.length === 1;
  }, "the sentinel knows the replica");
  ask.disconnect();
  app = testApp({ redisSentinels: [`127.0.0.1:${sentinelPort}`], redisName: NAME, logger: false }).app;
  await app.ready();
}, 60_000);

afterAll(async () => {
  await app?.close();
  sentinel?.kill("SIGKILL");
  await primary?.close();
  await replica?.close();
  if (folder !== undefined) rmSync(folder, { recursive: true, force: true });
});

describe("Redis Sentinel", () => {
  it("refuses a half configuration, naming the setting", () => {
    expect(() => testApp({ redisSentinels: ["127.0.0.1:1"] })).toThrow(BrokerConfigError);
    expect(() => testApp({ redisSentinels: ["127.0.0.1:1"], redisName: NAME, redisUrl: "redis://127.0.0.1:1" })).toThrow(/exclusive/);
    expect(() => testApp({ redisSentinels: ["not a host"], redisName: NAME })).toThrow(/redisSentinels\[0\]/);
    expect(() => testApp({ redisName: NAME })).toThrow(/redisName/);
  });

  it("finds the primary through the sentinel, and after a failover keeps writing to the new one without a restart", async () => {
    const before = revocation();
    expect((await post({ revocation: before })).statusCode).toBe(202);
    const onPrimary = new Redis(primary.url);
    expect(await onPrimary.xlen("eleven:broker:revocations")).toBe(1);
    // Replicated before the failover (a forced failover does not wait for it).
    expect(await onPrimary.call("WAIT", "1", "5000")).toBe(1);
    await onPrimary.quit();

    const ask = new Redis({ port: sentinelPort, host: "127.0.0.1" });
    await ask.call("SENTINEL", "FAILOVER", NAME);
    await until(async () => {
      const address = (await ask.call("SENTINEL", "GET-MASTER-ADDR-BY-NAME", NAME)) as string[];
      return Number(address[1]) === replica.port;
    }, "the replica is the primary");
    ask.disconnect();
    // Writes the old primary took before the sentinel demoted it are lost when it resyncs (Redis'
    // asynchronous replication): the failover is over once it is a replica.
    const oldPrimary = new Redis(primary.url);
    await until(async () => ((await oldPrimary.call("ROLE")) as unknown[])[0] === "slave", "the old primary is a replica");
    await oldPrimary.quit();

    const after = revocation();
    let status = 0;
    for (let attempt = 0; attempt < 100 && status !== 202; attempt += 1) {
      status = (await post({ revocation: after })).statusCode;
      if (status !== 202) await sleep(100);
    }
    expect(status).toBe(202);
    const onNewPrimary = new Redis(replica.url);
    expect(await onNewPrimary.call("ROLE").then((role) => (role as unknown[])[0])).toBe("master");
    const rows = await onNewPrimary.xrange("eleven:broker:revocations", "-", "+");
    await onNewPrimary.quit();
    expect(rows.map(([, fields]) => fields[1])).toEqual([before, after]);
    const listed = (await app.inject({ method: "GET", url: "/revocations?since=0" })).json() as { revocations: string[] };
    expect(listed.revocations).toEqual([before, after]);
  }, 60_000);
});
