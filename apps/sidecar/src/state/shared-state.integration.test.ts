// Several sidecars of one bot sharing a real redis-server (started here on a free
// loopback port, installed with apt-get when missing), against a loopback TLS
// stand-in for api.github.com that counts what it receives.
import { generateMemberKeys } from "@eleven-integrations/grants";
import { startRedisServer, type TestRedisServer } from "@eleven-integrations/test-support";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { member } from "../__fixtures__/grant-kit.js";
import { startFleet, type Fleet } from "../__fixtures__/sidecar-fleet.js";
import { startProviderStandIn, type ProviderStandIn } from "../__fixtures__/provider-stand-in.js";
import { redisKeyPrefix } from "./redis-state.js";

const ISSUE_ARGS = { owner: "octocat", repo: "hello-world", title: "Crash on start" };

let redis: TestRedisServer;
let provider: ProviderStandIn;
const fleets: Fleet[] = [];

function writesSent(): number {
  return provider.requests.filter((request) => request.method === "POST").length;
}
function readsSent(): number {
  return provider.requests.filter((request) => request.method === "GET").length;
}

async function fleet(options: Omit<Parameters<typeof startFleet>[0], "dispatcher" | "redisUrl"> = { count: 3 }): Promise<Fleet> {
  const started = await startFleet({ ...options, dispatcher: provider.dispatcher, redisUrl: redis.url });
  fleets.push(started);
  return started;
}

beforeAll(async () => {
  redis = await startRedisServer();
  provider = await startProviderStandIn();
});

afterAll(async () => {
  await Promise.all(fleets.map((started) => started.close()));
  await provider?.close();
  await redis?.close();
});

describe("one confirmation, one write", () => {
  it("runs a confirmation submitted six times at once over three sidecars exactly once", async () => {
    const bots = await fleet({ count: 3 });
    const grant = bots.grant({ access: "write" });
    const confirmation = bots.confirmation(grant, "issues.create", ISSUE_ARGS);
    const before = writesSent();
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, index) => bots.sidecars[index % 3]!.call("/v1/run", { grant, op: "issues.create", args: ISSUE_ARGS, confirmation })),
    );
    expect(writesSent() - before).toBe(1);
    // One ran; each other answers "in progress" (while it ran) or its stored outcome, replayed (after).
    expect(answers.filter((answer) => answer.body.status === "ok" && answer.body.replayed === undefined)).toHaveLength(1);
    for (const answer of answers.filter((answer) => answer.body.status !== "ok" || answer.body.replayed !== undefined)) {
      if (answer.body.status === "ok") expect(answer.body.replayed).toBe(true);
      else expect(answer.body.error).toMatchObject({ code: "confirmation_invalid", message: expect.stringContaining("replayed") });
    }
  });

  it("keeps the consumed confirmation in Redis, under the bot's namespace, past the last second any sidecar could verify it", async () => {
    const bots = await fleet({ count: 1 });
    const grant = bots.grant({ access: "write" });
    const confirmation = bots.confirmation(grant, "issues.create", ISSUE_ARGS);
    await bots.sidecars[0]!.call("/v1/run", { grant, op: "issues.create", args: ISSUE_ARGS, confirmation });
    const client = new Redis(redis.url);
    try {
      const keys = await client.keys(`${redisKeyPrefix(bots.bot.publicKey)}replay:*`);
      expect(keys).toHaveLength(1);
      const ttl = await client.ttl(keys[0]!);
      // A confirmation is accepted 300 s plus 60 s of clock skew; kept 60 s of skew and the 1 s command timeout longer.
      expect(ttl).toBeGreaterThan(360);
      expect(ttl).toBeLessThanOrEqual(421);
    } finally {
      client.disconnect();
    }
  });
});

describe("rate limits shared by the sidecars of a bot", () => {
  it("refuses the run over the grant's limit on any sidecar with rate_limited and retry_after_s, sending nothing", async () => {
    const bots = await fleet({ count: 3, rateLimits: { perGrant: { points: 3, durationSeconds: 60 } } });
    const grant = bots.grant();
    const before = readsSent();
    const answers = [];
    for (let index = 0; index < 4; index += 1) answers.push(await bots.sidecars[index % 3]!.call("/v1/run", { grant, op: "repos.list" }));
    expect(answers.slice(0, 3).map((answer) => answer.body.status)).toEqual(["ok", "ok", "ok"]);
    expect(answers[3]!.body).toMatchObject({ status: "error", integration: "github", op: "repos.list", error: { code: "rate_limited" } });
    expect(answers[3]!.body.error.retry_after_s).toBeGreaterThan(0);
    expect(answers[3]!.body.error.retry_after_s).toBeLessThanOrEqual(60);
    expect(answers[3]!.body.error.next_action).toMatch(/Wait/);
    expect(readsSent() - before).toBe(3);
    // Another grant of the same bot has its own allowance.
    expect((await bots.sidecars[1]!.call("/v1/run", { grant: bots.grant(), op: "repos.list" })).body.status).toBe("ok");
    const audit = await bots.sidecars[0]!.audit();
    expect(audit.map((line) => line.code)).toContain("rate_limited");
  });

  it("limits the integration across grants, and a write over the limit keeps its confirmation unused", async () => {
    const bots = await fleet({ count: 2, rateLimits: { perIntegration: { points: 2, durationSeconds: 60 } } });
    const before = provider.requests.length;
    expect((await bots.sidecars[0]!.call("/v1/run", { grant: bots.grant(), op: "repos.list" })).body.status).toBe("ok");
    expect((await bots.sidecars[1]!.call("/v1/run", { grant: bots.grant(), op: "repos.list" })).body.status).toBe("ok");
    const writeGrant = bots.grant({ access: "write" });
    const confirmation = bots.confirmation(writeGrant, "issues.create", ISSUE_ARGS);
    const limited = await bots.sidecars[0]!.call("/v1/run", { grant: writeGrant, op: "issues.create", args: ISSUE_ARGS, confirmation });
    expect(limited.body.error).toMatchObject({ code: "rate_limited" });
    expect(provider.requests.length - before).toBe(2);
    // The confirmation was not consumed: once the window passes (cleared here), it still runs, once.
    const client = new Redis(redis.url);
    try {
      const keys = await client.keys(`${redisKeyPrefix(bots.bot.publicKey)}rl:*`);
      expect(keys.length).toBeGreaterThan(0);
      for (const key of keys) expect(await client.ttl(key)).toBeLessThanOrEqual(60);
      await client.del(...keys);
      expect(await client.keys(`${redisKeyPrefix(bots.bot.publicKey)}replay:*`)).toEqual([]);
    } finally {
      client.disconnect();
    }
    const ran = await bots.sidecars[1]!.call("/v1/run", { grant: writeGrant, op: "issues.create", args: ISSUE_ARGS, confirmation });
    expect(ran.body.status).toBe("ok");
  });
});

describe("previews given by one sidecar, tapped on another", () => {
  const CLOSE_ARGS = { owner: "octocat", repo: "Hello-World", issue_number: "1347", reason: "completed" };
  const patchesSent = () => provider.requests.filter((request) => request.method === "PATCH").length;

  it("runs a tap on the chip sidecar 0 gave when it reaches sidecar 1, once; a preview no sidecar gave is refused", async () => {
    const bots = await fleet({ count: 2 });
    const grant = bots.grant({ access: "write" });
    const asked = await bots.sidecars[0]!.call("/v1/run", { grant, op: "issues.close", args: CLOSE_ARGS });
    expect(asked.body).toMatchObject({ status: "confirmation_required", preview: "“Found a bug”, open, 0 comments, opened by octocat" });
    const line = `${asked.body.confirm as string}\n${asked.body.preview as string}`;

    const before = patchesSent();
    const madeUp = bots.confirmationOver(
      grant,
      "issues.close",
      CLOSE_ARGS,
      `${asked.body.confirm as string}\n“Something else”, open, 0 comments, opened by octocat`,
    );
    const refused = await bots.sidecars[1]!.call("/v1/run", { grant, op: "issues.close", args: CLOSE_ARGS, confirmation: madeUp });
    expect(refused.body.error).toMatchObject({ code: "confirmation_invalid" });

    const confirmation = bots.confirmationOver(grant, "issues.close", CLOSE_ARGS, line);
    const ran = await bots.sidecars[1]!.call("/v1/run", { grant, op: "issues.close", args: CLOSE_ARGS, confirmation });
    expect(ran.body).toMatchObject({ status: "ok", data: { number: 1347, state: "closed", state_reason: "completed" } });
    const again = await bots.sidecars[0]!.call("/v1/run", { grant, op: "issues.close", args: CLOSE_ARGS, confirmation });
    expect(again.body).toMatchObject({ status: "ok", replayed: true });
    expect(patchesSent() - before).toBe(1);

    // Kept as long as a confirmation over it verifies (five minutes and a minute of skew), plus the margin.
    const client = new Redis(redis.url);
    try {
      const keys = await client.keys(`${redisKeyPrefix(bots.bot.publicKey)}preview:*`);
      expect(keys).toHaveLength(1);
      expect(keys[0]).toContain(`:${member.publicKey}:`);
      expect(await client.lrange(keys[0]!, 0, -1)).toEqual([asked.body.preview]);
      const ttl = await client.ttl(keys[0]!);
      expect(ttl).toBeGreaterThan(360);
      expect(ttl).toBeLessThanOrEqual(421);
    } finally {
      client.disconnect();
    }
  });
});

describe("revocation", () => {
  it("records a revocation on one sidecar and every sidecar of the bot then refuses the grant", async () => {
    const bots = await fleet({ count: 3 });
    const grant = bots.grant({ access: "write" });
    expect((await bots.sidecars[1]!.call("/v1/run", { grant, op: "repos.list" })).body.status).toBe("ok");

    const revoked = await bots.sidecars[0]!.call("/v1/revoke", { revocation: bots.revocation(grant) });
    expect(revoked.statusCode).toBe(200);
    expect(revoked.body).toMatchObject({ status: "ok", integration: "github" });
    expect(revoked.body.gid).toMatch(/^[A-Za-z0-9_-]{22}$/);

    const before = provider.requests.length;
    for (const sidecar of bots.sidecars) {
      const read = await sidecar.call("/v1/run", { grant, op: "repos.list" });
      expect(read.body).toMatchObject({ status: "error", integration: "github", error: { code: "grant_invalid", message: "the member revoked this grant" } });
      expect(read.body.error.next_action).toMatch(/fresh grant/);
      const write = await sidecar.call("/v1/run", {
        grant,
        op: "issues.create",
        args: ISSUE_ARGS,
        confirmation: bots.confirmation(grant, "issues.create", ISSUE_ARGS),
      });
      expect(write.body.error.code).toBe("grant_invalid");
      expect((await sidecar.call("/v1/ops", { grant })).body.error.code).toBe("grant_invalid");
    }
    expect(provider.requests.length).toBe(before);

    // Kept while any sidecar accepts the grant (its exp + 60 s of skew) and a margin (60 s of skew, the 1 s command timeout).
    const client = new Redis(redis.url);
    try {
      const keys = await client.keys(`${redisKeyPrefix(bots.bot.publicKey)}revoked:*`);
      expect(keys).toEqual([`${redisKeyPrefix(bots.bot.publicKey)}revoked:${revoked.body.gid}:${member.publicKey}`]);
      const ttl = await client.ttl(keys[0]!);
      expect(ttl).toBeGreaterThan(660);
      expect(ttl).toBeLessThanOrEqual(721);
    } finally {
      client.disconnect();
    }
    // Another grant of the same member still runs.
    expect((await bots.sidecars[2]!.call("/v1/run", { grant: bots.grant(), op: "repos.list" })).body.status).toBe("ok");
  });

  it("refuses a revocation not signed by the grant's member, and then the grant still runs", async () => {
    const other = generateMemberKeys();
    const bots = await fleet({ count: 2, trustedMembers: [member.publicKey, other.publicKey] });
    const grant = bots.grant();
    const forged = await bots.sidecars[0]!.call("/v1/revoke", { revocation: bots.revocation(grant, other) });
    expect(forged.body).toMatchObject({ status: "error", error: { code: "revocation_invalid" } });
    expect(forged.body.error.message).toContain("bad_signature");
    const garbage = await bots.sidecars[0]!.call("/v1/revoke", { revocation: "er1.AAAA" });
    expect(garbage.body.error.code).toBe("revocation_invalid");
    const unknownKey = await bots.sidecars[0]!.call("/v1/revoke", { revocation: bots.revocation(grant), gid: "x" });
    expect(unknownKey.statusCode).toBe(400);
    expect((await bots.sidecars[1]!.call("/v1/run", { grant, op: "repos.list" })).body.status).toBe("ok");
  });
});

describe("while Redis is down", () => {
  it("refuses writes and reads with unavailable (nothing sent, a revoked grant never runs), and runs again once Redis is back", async () => {
    const bots = await fleet({ count: 2 });
    const writeGrant = bots.grant({ access: "write" });
    const readGrant = bots.grant();
    const [a, b] = bots.sidecars as [Fleet["sidecars"][0], Fleet["sidecars"][0]];
    // Revoked while Redis was up: sidecar a learned it.
    const revokedGrant = bots.grant();
    expect((await a.call("/v1/revoke", { revocation: bots.revocation(revokedGrant) })).body.status).toBe("ok");

    await redis.stop();
    try {
      const before = provider.requests.length;
      const write = await a.call("/v1/run", {
        grant: writeGrant,
        op: "issues.create",
        args: ISSUE_ARGS,
        confirmation: bots.confirmation(writeGrant, "issues.create", ISSUE_ARGS),
      });
      expect(write.statusCode).toBe(200);
      expect(write.body).toMatchObject({ status: "error", integration: "github", op: "issues.create", error: { code: "unavailable" } });
      expect(write.body.error.next_action).toMatch(/Try again/);
      const chip = await b.call("/v1/run", { grant: writeGrant, op: "issues.create", args: ISSUE_ARGS });
      expect(chip.body.error.code).toBe("unavailable");
      const revoke = await b.call("/v1/revoke", { revocation: bots.revocation(readGrant) });
      expect(revoke.body.error.code).toBe("unavailable");
      expect(provider.requests.length).toBe(before);

      // Finding 1, the attack: sidecar b never learned of the revocation a recorded; a read
      // of the revoked grant on b used to run. Every run now fails closed, reads too.
      const readOnB = await b.call("/v1/run", { grant: revokedGrant, op: "repos.list" });
      expect(readOnB.body).toMatchObject({ status: "error", op: "repos.list", error: { code: "unavailable" } });
      expect((await b.call("/v1/run", { grant: readGrant, op: "repos.list" })).body.error.code).toBe("unavailable");
      expect(provider.requests.length).toBe(before);
      // What a sidecar learned stays refused as revoked.
      expect((await a.call("/v1/run", { grant: revokedGrant, op: "repos.list" })).body.error.code).toBe("grant_invalid");
      expect((await a.audit()).map((line) => line.code)).toContain("unavailable");
    } finally {
      await redis.start();
    }

    // Back without a restart of any sidecar.
    await expect
      .poll(async () => (await a.call("/v1/run", { grant: writeGrant, op: "issues.create", args: ISSUE_ARGS })).body.status, { timeout: 15_000, interval: 200 })
      .toBe("confirmation_required");
    await expect
      .poll(async () => (await b.call("/v1/run", { grant: writeGrant, op: "issues.create", args: ISSUE_ARGS })).body.status, { timeout: 15_000, interval: 200 })
      .toBe("confirmation_required");
    // Redis came back empty (test-support restarts it without persistence): a confirmation that could
    // have been signed before the loss is refused (finding 3), one signed after it runs once.
    const before = writesSent();
    const early = await a.call("/v1/run", {
      grant: writeGrant,
      op: "issues.create",
      args: ISSUE_ARGS,
      confirmation: bots.confirmation(writeGrant, "issues.create", ISSUE_ARGS),
    });
    expect(early.body.error.code).toBe("confirmation_invalid");
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    // The member's clock 60 s ahead stands in for a tap made a minute after the loss was found.
    const confirmation = bots.confirmation(writeGrant, "issues.create", ISSUE_ARGS, Math.floor(Date.now() / 1000) + 60);
    const answers = await Promise.all(
      [a, b, a, b].map((sidecar) => sidecar.call("/v1/run", { grant: writeGrant, op: "issues.create", args: ISSUE_ARGS, confirmation })),
    );
    expect(answers.filter((answer) => answer.body.status === "ok" && answer.body.replayed === undefined)).toHaveLength(1);
    expect(writesSent() - before).toBe(1);
  });

  it("starts while Redis is down (running nothing), and runs once Redis comes up", async () => {
    const late = await startRedisServer();
    await late.stop();
    try {
      const started = await startFleet({ count: 1, dispatcher: provider.dispatcher, redisUrl: late.url });
      fleets.push(started);
      const sidecar = started.sidecars[0]!;
      const writeGrant = started.grant({ access: "write" });
      expect((await sidecar.call("/v1/run", { grant: started.grant(), op: "repos.list" })).body.error.code).toBe("unavailable");
      expect((await sidecar.call("/v1/run", { grant: writeGrant, op: "issues.create", args: ISSUE_ARGS })).body.error.code).toBe("unavailable");
      await late.start();
      await expect
        .poll(async () => (await sidecar.call("/v1/run", { grant: writeGrant, op: "issues.create", args: ISSUE_ARGS })).body.status, {
          timeout: 15_000,
          interval: 200,
        })
        .toBe("confirmation_required");
      const ran = await sidecar.call("/v1/run", {
        grant: writeGrant,
        op: "issues.create",
        args: ISSUE_ARGS,
        confirmation: started.confirmation(writeGrant, "issues.create", ISSUE_ARGS),
      });
      expect(ran.body.status).toBe("ok");
    } finally {
      await Promise.all(fleets.splice(fleets.length - 1).map((started) => started.close()));
      await late.close();
    }
  });
});
