// Sidecars on Redis Sentinel when the primary is killed (SIGKILL, not SENTINEL FAILOVER) and
// its one replica is promoted with no replica left behind it (third review, finding 12): writes
// come back through the promoted primary within 30 s without a restart, and no confirmation runs
// twice. Real redis-server and redis-sentinel processes, the loopback stand-in for api.github.com.
import { startRedisSentinel, type TestRedisSentinel } from "@eleven-integrations/test-support";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFleet, type Fleet, type LooseAnswer } from "../__fixtures__/sidecar-fleet.js";
import { startProviderStandIn, type ProviderStandIn } from "../__fixtures__/provider-stand-in.js";

let sentinel: TestRedisSentinel;
let provider: ProviderStandIn;
let bots: Fleet;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const args = (title: string) => ({ owner: "octocat", repo: "hello-world", title });
const sentFor = (title: string) =>
  provider.requests.filter((request) => request.method === "POST" && (request.body as { title?: string }).title === title).length;
const outcome = (body: LooseAnswer) => (body.replayed === true ? "replayed" : body.status === "ok" ? "ok" : body.error.code);

beforeAll(async () => {
  sentinel = await startRedisSentinel({ name: "eleven-killed" });
  provider = await startProviderStandIn();
  bots = await startFleet({ count: 2, dispatcher: provider.dispatcher, redisSentinels: [`127.0.0.1:${sentinel.port}`], redisName: sentinel.name });
}, 60_000);

afterAll(async () => {
  await bots?.close();
  await provider?.close();
  await sentinel?.close();
});

/** A fresh tap on one write, sent to both sidecars at once; the answers. */
async function write(title: string): Promise<{ body: Record<string, unknown>; answers: string[] }> {
  const grant = bots.grant({ access: "write" });
  const body = { grant, op: "issues.create", args: args(title), confirmation: bots.confirmation(grant, "issues.create", args(title)) };
  const answers = await Promise.all(bots.sidecars.map(async (sidecar) => outcome((await sidecar.call("/v1/run", body)).body)));
  return { body, answers };
}

describe("the Redis primary killed, its replica promoted with none left", () => {
  it("writes again within 30 s without a restart, and runs no confirmation twice", async () => {
    const before = await write("before the kill");
    expect(before.answers.filter((answer) => answer === "ok")).toHaveLength(1);

    const killedAt = Date.now();
    await sentinel.primary.stop();
    let back: { title: string; answers: string[] } | undefined;
    const tried: { title: string; answers: string[] }[] = [];
    for (let attempt = 0; back === undefined && Date.now() - killedAt < 30_000; attempt += 1) {
      const title = `after the kill ${attempt}`;
      const { answers } = await write(title);
      tried.push({ title, answers });
      if (answers.includes("ok")) back = { title, answers };
      else await sleep(250);
    }
    expect(back, `answers while waiting: ${JSON.stringify(tried.slice(-3))}`).toBeDefined();
    expect(Date.now() - killedAt).toBeLessThan(30_000);
    expect(await sentinel.primaryPort()).toBe(sentinel.replica.port);

    // Every write ran at most once: never two ok answers for one tap, never two requests at the provider.
    for (const { title, answers } of [...tried, { title: "before the kill", answers: before.answers }]) {
      expect(answers.filter((answer) => answer === "ok").length).toBeLessThanOrEqual(1);
      expect(sentFor(title)).toBe(answers.filter((answer) => answer === "ok").length);
    }
    // The tap from before the kill sent again: its consumption survived on the promoted replica.
    const again = await Promise.all(bots.sidecars.map(async (sidecar) => outcome((await sidecar.call("/v1/run", before.body)).body)));
    expect(again).not.toContain("ok");
    expect(sentFor("before the kill")).toBe(1);
    // Later writes keep working on the lone primary.
    expect((await write("steady on the lone primary")).answers).toContain("ok");
  }, 60_000);
});
