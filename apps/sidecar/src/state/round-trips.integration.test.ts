// The Redis commands one run costs, as Redis itself reports them (MONITOR on the primary,
// which marks a script's own commands "lua": those run inside the one trip that called the
// script and are not counted), under Sentinel so WAIT is among them: a read 1, a confirmed write 3, a write
// under a standing approval 3. A change that adds a trip to any of them fails here.
// Real sidecar, real redis-server primary and replica watched by a real redis-sentinel.
import { startRedisSentinel, type TestRedisSentinel } from "@eleven-integrations/test-support";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { approvalFor } from "../__fixtures__/grant-kit.js";
import { startProviderStandIn, type ProviderStandIn } from "../__fixtures__/provider-stand-in.js";
import { startFleet, type Fleet } from "../__fixtures__/sidecar-fleet.js";

let sentinel: TestRedisSentinel;
let provider: ProviderStandIn;
let fleet: Fleet;
let primary: Redis;

// What Redis's own bookkeeping sends besides the sidecar's runs: the sentinel's PING, INFO and hello
// PUBLISH, the replica's REPLCONF ACK, and connection set-up.
const BACKGROUND = /^(ping|info|publish|replconf|role|client|hello|subscribe|psync|sync|config|command|select|auth|monitor)$/i;

/** The commands the primary ran for one call (each a round trip of the sidecar's), script internals and background aside. */
async function countedRun(body: unknown): Promise<{ status: string; commands: Record<string, number>; total: number }> {
  const monitor = await primary.monitor();
  const commands: Record<string, number> = {};
  monitor.on("monitor", (_time: string, args: string[], source: string) => {
    const name = (args[0] ?? "").toLowerCase();
    if (source === "lua" || BACKGROUND.test(name)) return;
    commands[name] = (commands[name] ?? 0) + 1;
  });
  try {
    const answer = await (fleet.sidecars[0] as Fleet["sidecars"][number]).call("/v1/run", body);
    // MONITOR's feed trails the replies by a moment: a PING through the same server after the call flushes it.
    await primary.ping();
    await new Promise((resolve) => setTimeout(resolve, 200));
    return { status: answer.body.status, commands, total: Object.values(commands).reduce((sum, calls) => sum + calls, 0) };
  } finally {
    monitor.disconnect();
  }
}

const ISSUE = (title: string) => ({ owner: "octocat", repo: "hello-world", title });

beforeAll(async () => {
  sentinel = await startRedisSentinel();
  provider = await startProviderStandIn();
  fleet = await startFleet({ count: 1, dispatcher: provider.dispatcher, redisSentinels: [`127.0.0.1:${sentinel.port}`], redisName: sentinel.name });
  primary = new Redis(sentinel.primary.url);
}, 60_000);

afterAll(async () => {
  primary?.disconnect();
  await fleet?.close();
  await provider?.close();
  await sentinel?.close();
});

describe("Redis round trips of one run, counted by Redis", () => {
  it("a read costs 1, a confirmed write 3 with WAIT, a write under a standing approval 3 with WAIT", async () => {
    const grant = fleet.grant({ access: "write" });
    const approval = approvalFor({
      op: "issues.create",
      args: { owner: { eq: "octocat" }, repo: { eq: "hello-world" }, title: "any", body: "any" },
      budget: { runs: 100, per_seconds: 3600 },
      botPublicKey: fleet.bot.publicKey,
    });
    const read = { grant, op: "repos.list" };
    const confirmed = (title: string) => ({
      grant,
      op: "issues.create",
      args: ISSUE(title),
      confirmation: fleet.confirmation(grant, "issues.create", ISSUE(title)),
    });
    const approved = (title: string) => ({ grant, op: "issues.create", args: ISSUE(title), approval });
    // Once each first: a script's first run may load it (EVALSHA, then EVAL).
    for (const body of [read, confirmed("warm-up"), approved("warm-up")]) await (fleet.sidecars[0] as Fleet["sidecars"][number]).call("/v1/run", body);

    const reading = await countedRun(read);
    expect(reading.status).toBe("ok");
    expect(reading.commands).toEqual({ evalsha: 1 });

    const writing = await countedRun(confirmed("counted"));
    expect(writing.status).toBe("ok");
    expect(writing.commands).toEqual({ evalsha: 1, wait: 1, set: 1 });
    expect(writing.total).toBe(3);

    const underApproval = await countedRun(approved("counted"));
    expect(underApproval.status).toBe("ok");
    expect(underApproval.commands).toEqual({ evalsha: 2, wait: 1 });
    expect(underApproval.total).toBe(3);
  });
});
