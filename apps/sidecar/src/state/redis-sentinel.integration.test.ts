// Sidecars on Redis Sentinel: a real primary and replica (redis-server) watched by a real
// redis-sentinel (test-support's startRedisSentinel), confirmed writes against the loopback
// stand-in for api.github.com while SENTINEL FAILOVER moves the primary, and after it.
import { startRedisSentinel, type TestRedisSentinel } from "@eleven-integrations/test-support";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFleet, type Fleet, type LooseAnswer } from "../__fixtures__/sidecar-fleet.js";
import { approvalFor } from "../__fixtures__/grant-kit.js";
import { startProviderStandIn, type ProviderStandIn } from "../__fixtures__/provider-stand-in.js";
import { redisKeyPrefix } from "./redis-state.js";

let sentinel: TestRedisSentinel;
let provider: ProviderStandIn;
let bots: Fleet;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const args = (title: string) => ({ owner: "octocat", repo: "hello-world", title });

/** Issues created at the stand-in for `title`. */
function sentFor(title: string): number {
  return provider.requests.filter((request) => request.method === "POST" && (request.body as { title?: string }).title === title).length;
}
// A repeat answered with the first run's stored outcome is "replayed": it sent nothing.
const outcome = (body: LooseAnswer) => (body.replayed === true ? "replayed" : body.status === "ok" ? "ok" : body.error.code);

interface Submission {
  title: string;
  confirmation: string;
  grant: string;
  answers: string[];
}

/** One confirmed write, submitted to both sidecars at once (a caller's retry racing its first try). */
async function submit(title: string): Promise<Submission> {
  const grant = bots.grant({ access: "write" });
  const confirmation = bots.confirmation(grant, "issues.create", args(title));
  const submission: Submission = { title, confirmation, grant, answers: [] };
  await resubmit(submission);
  return submission;
}
async function resubmit(submission: Submission): Promise<void> {
  const body = { grant: submission.grant, op: "issues.create", args: args(submission.title), confirmation: submission.confirmation };
  const answers = await Promise.all(bots.sidecars.map((sidecar) => sidecar.call("/v1/run", body)));
  submission.answers.push(...answers.map((answer) => outcome(answer.body)));
}

beforeAll(async () => {
  sentinel = await startRedisSentinel();
  provider = await startProviderStandIn();
  bots = await startFleet({
    count: 2,
    dispatcher: provider.dispatcher,
    redisSentinels: [`127.0.0.1:${sentinel.port}`],
    redisName: sentinel.name,
    // Far above this test's load: it is about the failover, not the limits.
    rateLimits: { perGrant: { points: 1000, durationSeconds: 60 }, perIntegration: { points: 100_000, durationSeconds: 60 } },
  });
}, 60_000);

afterAll(async () => {
  await bots?.close();
  await provider?.close();
  await sentinel?.close();
});

describe("Redis Sentinel", () => {
  it("refuses a half or mixed configuration before starting, naming the setting", async () => {
    const start = (options: { redisUrl?: string; redisSentinels?: string[]; redisName?: string }) =>
      startFleet({ count: 1, dispatcher: provider.dispatcher, ...options });
    await expect(start({ redisSentinels: ["127.0.0.1:1"] })).rejects.toMatchObject({
      code: "invalid_setting",
      message: expect.stringMatching(/redisName is required/),
    });
    await expect(start({ redisSentinels: ["127.0.0.1:1"], redisName: "x", redisUrl: "redis://127.0.0.1:1" })).rejects.toThrow(/exclusive/);
    await expect(start({ redisSentinels: ["not a host"], redisName: "x" })).rejects.toThrow(/redisSentinels\[0\]/);
    await expect(start({ redisName: "x" })).rejects.toThrow(/redisName is only used with redisSentinels/);
  });

  it("runs no confirmation twice through a failover under load, and writes again afterwards without a restart", async () => {
    const submissions: Submission[] = [];
    let failedOver = false;
    let sequence = 0;
    // Four callers writing until the failover is over.
    const load = Promise.all(
      Array.from({ length: 4 }, async () => {
        while (!failedOver) {
          submissions.push(await submit(`load ${(sequence += 1)}`));
          await sleep(5);
        }
      }),
    );
    // Writes are running before the failover starts (on a busy machine the first one can take a while).
    const okSoFar = () => submissions.filter((submission) => submission.answers.includes("ok")).length;
    for (let waited = 0; waited < 100 && okSoFar() < 3; waited += 1) await sleep(100);
    const before = okSoFar();
    const moved = await sentinel.failover();
    failedOver = true;
    await load;
    expect(before).toBeGreaterThan(0);
    expect(moved.to).toBe(sentinel.replica.port);

    // The same sidecars, not restarted: writes run again once they reconnect to the new primary.
    let first: Submission | undefined;
    for (let attempt = 0; attempt < 100 && first === undefined; attempt += 1) {
      const submission = await submit(`after ${attempt}`);
      submissions.push(submission);
      if (submission.answers.includes("ok")) first = submission;
      else await sleep(100);
    }
    expect(first).toBeDefined();
    const burned: Submission[] = [];
    const steady = await Promise.all(
      Array.from({ length: 10 }, async (_, index) => {
        let submission = await submit(`steady ${index}`);
        // The other sidecar may still be reconnecting, or the new primary still waiting for its replica (WAIT): those answer
        // unavailable and send nothing, and the caller tries the same confirmation again, as a caller would. A confirmation
        // one sidecar consumed while the replica's acknowledgement did not come stays burned (fail closed): every later try
        // is confirmation_invalid, so the member taps again (a new confirmation of the same write).
        for (let attempt = 0; attempt < 50 && !submission.answers.includes("ok"); attempt += 1) {
          await sleep(100);
          const tried = submission.answers.length;
          await resubmit(submission);
          if (submission.answers.slice(tried).every((answer) => answer === "confirmation_invalid")) {
            burned.push(submission);
            submission = { ...submission, confirmation: bots.confirmation(submission.grant, "issues.create", args(submission.title)), answers: [] };
            await resubmit(submission);
          }
        }
        return submission;
      }),
    );
    submissions.push(...burned, ...steady);
    // A burned confirmation sent nothing: each steady write ran once, under its last confirmation.
    for (const submission of burned)
      expect(
        submission.answers.filter((answer) => answer === "ok"),
        submission.answers.join(", "),
      ).toHaveLength(0);
    for (const submission of steady) {
      expect(
        submission.answers.filter((answer) => answer === "ok"),
        submission.answers.join(", "),
      ).toHaveLength(1);
      expect(
        submission.answers.filter((answer) => answer !== "ok").every((answer) => ["confirmation_invalid", "replayed", "unavailable"].includes(answer)),
      ).toBe(true);
    }

    // Every confirmation once more, now that the failover is over: none may run again.
    for (const submission of submissions) await resubmit(submission);

    // One write (a title) ran at most once whatever its confirmations, and sent exactly as often as a sidecar answered ok.
    const oksByTitle = new Map<string, number>();
    for (const submission of submissions) {
      const ok = submission.answers.filter((answer) => answer === "ok").length;
      oksByTitle.set(submission.title, (oksByTitle.get(submission.title) ?? 0) + ok);
      // A refusal is the replay (confirmation_invalid) or the store being unreachable mid-failover, nothing else.
      for (const answer of submission.answers) expect(["ok", "replayed", "confirmation_invalid", "unavailable"]).toContain(answer);
    }
    for (const [title, ok] of oksByTitle) {
      expect(ok, title).toBeLessThanOrEqual(1);
      expect(sentFor(title), title).toBe(ok);
    }
    const oks = submissions.filter((submission) => submission.answers.includes("ok")).length;
    expect(provider.requests.filter((request) => request.method === "POST").length).toBe(oks);
    expect(oks).toBeGreaterThan(before + 10);

    // Each confirmation that ran is kept on the new primary (replicated before it counted).
    const onNewPrimary = new Redis(sentinel.replica.url);
    try {
      expect(((await onNewPrimary.call("ROLE")) as unknown[])[0]).toBe("master");
      const kept = await onNewPrimary.keys(`${redisKeyPrefix(bots.bot.publicKey)}replay:*`);
      expect(kept.length).toBeGreaterThanOrEqual(oks);
    } finally {
      onNewPrimary.disconnect();
    }
  }, 90_000);

  it("never overspends a standing approval's budget through a failover: what a sidecar counted before it ran was replicated", async () => {
    const grant = bots.grant({ access: "write" });
    const budget = { runs: 12, per_seconds: 3600 };
    const approval = approvalFor({
      op: "issues.create",
      args: { owner: { eq: "octocat" }, repo: { eq: "hello-world" }, title: "any", body: "any" },
      budget,
      botPublicKey: bots.bot.publicKey,
    });
    const answers: string[] = [];
    let stop = false;
    let sequence = 0;
    const approvedPosts = () =>
      provider.requests.filter((request) => request.method === "POST" && String((request.body as { title?: string }).title).startsWith("approved ")).length;
    // Four callers, each call sent to both sidecars at once: every one that runs is a write of its own.
    const load = Promise.all(
      Array.from({ length: 4 }, async () => {
        while (!stop) {
          const body = { grant, op: "issues.create", args: args(`approved ${(sequence += 1)}`), approval };
          const replies = await Promise.all(bots.sidecars.map((sidecar) => sidecar.call("/v1/run", body)));
          answers.push(...replies.map((reply) => outcome(reply.body)));
          await sleep(80);
        }
      }),
    );
    for (let waited = 0; waited < 100 && !answers.includes("ok"); waited += 1) await sleep(100);
    await sentinel.failover();
    // Go on until the budget is spent on the new primary, or long enough that it would have been overspent.
    for (let waited = 0; waited < 100 && answers.filter((answer) => answer === "approval_exhausted").length < 8; waited += 1) await sleep(100);
    stop = true;
    await load;
    const oks = answers.filter((answer) => answer === "ok").length;
    expect(answers.filter((answer) => answer === "ok").length).toBeGreaterThan(0);
    expect(oks).toBeLessThanOrEqual(budget.runs);
    expect(approvedPosts()).toBe(oks);
    // The grant's own limit may refuse a run too (it sends nothing and spends no budget).
    for (const answer of answers) expect(["ok", "approval_exhausted", "unavailable", "rate_limited"]).toContain(answer);
  }, 90_000);
});
