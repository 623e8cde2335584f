// The broker on Redis Sentinel: a real primary and replica (redis-server) watched by a real
// redis-sentinel (test-support's startRedisSentinel), a failover
// forced with SENTINEL FAILOVER, and the broker keeping revocations on the new primary
// without a restart.
import { randomBytes } from "node:crypto";
import { generateMemberKeys, ready, signRevocation } from "@eleven-integrations/grants";
import { startRedisSentinel, type TestRedisSentinel } from "@eleven-integrations/test-support";
import type { FastifyInstance } from "fastify";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testApp } from "../__fixtures__/test-app.js";
import { BrokerConfigError } from "../config/config.js";

let sentinel: TestRedisSentinel;
let app: FastifyInstance;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const revocation = () => signRevocation({ member: generateMemberKeys(), grant: `eg1.${randomBytes(120).toString("base64url")}` });
const post = (body: unknown) =>
  app.inject({ method: "POST", url: "/revocations", headers: { "content-type": "application/json" }, payload: JSON.stringify(body) });

beforeAll(async () => {
  await ready();
  sentinel = await startRedisSentinel();
  app = testApp({ redisSentinels: [`127.0.0.1:${sentinel.port}`], redisName: sentinel.name, logger: false }).app;
  await app.ready();
}, 60_000);

afterAll(async () => {
  await app?.close();
  await sentinel?.close();
});

describe("Redis Sentinel", () => {
  it("refuses a half configuration, naming the setting", () => {
    expect(() => testApp({ redisSentinels: ["127.0.0.1:1"] })).toThrow(BrokerConfigError);
    expect(() => testApp({ redisSentinels: ["127.0.0.1:1"], redisName: "eleven-test", redisUrl: "redis://127.0.0.1:1" })).toThrow(/exclusive/);
    expect(() => testApp({ redisSentinels: ["not a host"], redisName: "eleven-test" })).toThrow(/redisSentinels\[0\]/);
    expect(() => testApp({ redisName: "eleven-test" })).toThrow(/redisName/);
  });

  it("finds the primary through the sentinel, and after a failover keeps writing to the new one without a restart", async () => {
    const before = revocation();
    expect((await post({ revocation: before })).statusCode).toBe(202);
    const onPrimary = new Redis(sentinel.primary.url);
    expect(await onPrimary.xlen("eleven:broker:revocations")).toBe(1);
    // Replicated before the failover (a forced failover does not wait for it).
    expect(await onPrimary.call("WAIT", "1", "5000")).toBe(1);
    await onPrimary.quit();

    // Writes the old primary took before the sentinel demoted it are lost when it resyncs (Redis'
    // asynchronous replication): the failover is over once it is a replica.
    await sentinel.failover();

    const after = revocation();
    let status = 0;
    for (let attempt = 0; attempt < 100 && status !== 202; attempt += 1) {
      status = (await post({ revocation: after })).statusCode;
      if (status !== 202) await sleep(100);
    }
    expect(status).toBe(202);
    const onNewPrimary = new Redis(sentinel.replica.url);
    expect(await onNewPrimary.call("ROLE").then((role) => (role as unknown[])[0])).toBe("master");
    const rows = await onNewPrimary.xrange("eleven:broker:revocations", "-", "+");
    await onNewPrimary.quit();
    expect(rows.map(([, fields]) => fields[1])).toEqual([before, after]);
    const listed = (await app.inject({ method: "GET", url: "/revocations?since=0" })).json() as { revocations: string[] };
    expect(listed.revocations).toEqual([before, after]);
  }, 60_000);
});
