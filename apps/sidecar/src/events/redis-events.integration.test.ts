// Events kept in Redis Streams and shared by the bot's sidecars: real sidecars on 127.0.0.1,
// a real redis-server, and the loopback TLS stand-in for api.todoist.com (Todoist's "Get Tasks"
// answer, see __fixtures__/todoist-stand-in.ts).
import { join } from "node:path";
import { issueSubscription } from "@eleven-integrations/grants";
import { startRedisServer, type TestRedisServer } from "@eleven-integrations/test-support";
import type { FastifyInstance } from "fastify";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../app.js";
import { bot, CALLER_TOKEN, grantFor, manifestHash, member, registry, temporaryDirectory } from "../__fixtures__/grant-kit.js";
import { httpCall } from "../__fixtures__/http-call.js";
import { startTodoistStandIn, todoistTask, type TodoistStandIn } from "../__fixtures__/todoist-stand-in.js";

type Loose = Record<string, unknown> & { events?: Record<string, unknown>[]; next?: string; truncated?: boolean };

let todoist: TodoistStandIn;
let redis: TestRedisServer;
let observer: Redis;
const apps: FastifyInstance[] = [];

beforeAll(async () => {
  todoist = await startTodoistStandIn();
  redis = await startRedisServer();
  observer = new Redis(redis.url);
});

afterAll(async () => {
  await Promise.all(apps.map((app) => app.close()));
  observer?.disconnect();
  await todoist?.close();
  await redis?.close();
});

async function sidecar(home?: string, redisUrl = redis.url) {
  const dir = home ?? (await temporaryDirectory("redis-events-"));
  const app = buildApp({
    registry,
    botKeys: bot,
    trustedMembers: [member.publicKey],
    callerToken: CALLER_TOKEN,
    auditFile: join(dir, "audit.log"),
    revocationFile: join(dir, "revocations.log"),
    eventFile: join(dir, "events.log"),
    redisUrl,
    dispatcher: todoist.dispatcher,
    pollEveryMs: 200,
    lifecycleEveryMs: 100,
  });
  await app.listen({ host: "127.0.0.1", port: 0 });
  apps.push(app);
  const address = app.server.address();
  const port = typeof address === "object" && address !== null ? address.port : 0;
  return {
    home: dir,
    app,
    call: async (path: string, body: unknown) =>
      (await httpCall({ port, method: "POST", path, headers: { authorization: `Bearer ${CALLER_TOKEN}` }, body })).json() as Loose,
  };
}

const idOf = (event: Record<string, unknown>) => (event.data as Record<string, unknown>)["id"];

async function eventsUntil(local: Awaited<ReturnType<typeof sidecar>>, after: string | undefined, id: unknown) {
  let cursor = after;
  const seen: Record<string, unknown>[] = [];
  let truncated = false;
  const deadline = Date.now() + 8_000;
  while (Date.now() < deadline && !seen.some((event) => idOf(event) === id)) {
    const page = await local.call("/v1/events", { ...(cursor === undefined ? {} : { after: cursor }), wait_ms: 2_000 });
    seen.push(...(page.events ?? []));
    truncated ||= page.truncated === true;
    cursor = page.next;
  }
  return { seen, next: cursor, truncated };
}

describe("events in Redis Streams", () => {
  it("two sidecars of the bot poll one subscription and the bot hears each new task once, reading from either", async () => {
    const one = await sidecar();
    const two = await sidecar();
    const subscription = issueSubscription({
      member,
      botPublicKey: bot.publicKey,
      integration: "todoist",
      manifestHash: manifestHash("todoist"),
      events: ["task.added"],
      ttlSeconds: 7 * 86_400,
    });
    expect(await one.call("/v1/subscriptions", { subscription, grant: grantFor({ integration: "todoist", ttlSeconds: 3_600 }) })).toMatchObject({
      status: "ok",
    });
    // The second sidecar picks the kept subscription up when it is restarted; here it is given it too.
    expect(await two.call("/v1/subscriptions", { subscription, grant: grantFor({ integration: "todoist", ttlSeconds: 3_600 }) })).toMatchObject({
      status: "ok",
    });
    todoist.tasks.unshift(todoistTask("8Redis000001", "Shared by two sidecars"));
    const first = await eventsUntil(one, undefined, "8Redis000001");
    await new Promise((resolve) => setTimeout(resolve, 600));
    const rest = await two.call("/v1/events", { after: first.next });
    const all = [...first.seen, ...(rest.events ?? [])].filter((event) => idOf(event) === "8Redis000001");
    expect(all).toHaveLength(1);
    expect(all[0]).toMatchObject({ integration: "todoist", event: "task.added", line: "New task “Shared by two sidecars”" });
    expect(await observer.xlen(`eleven:sidecar:${bot.publicKey}:ev:stream`)).toBeGreaterThanOrEqual(1);

    // Redis loses everything: the old cursor answers truncated, the subscription comes back from the
    // sidecar's own journal, and the tasks already seen are not news again (a new baseline).
    await observer.flushall();
    const lost = await one.call("/v1/events", { after: first.next });
    expect(lost.truncated).toBe(true);
    // The next polls find no memory and take a new baseline; a task added after it is news.
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(await observer.hlen(`eleven:sidecar:${bot.publicKey}:ev:subs`)).toBe(1);
    todoist.tasks.unshift(todoistTask("8Redis000002", "After the loss"));
    const afterLoss = await eventsUntil(one, lost.next, "8Redis000002");
    const polled = afterLoss.seen.filter((event) => event.integration === "todoist").map(idOf);
    expect(polled).toContain("8Redis000002");
    expect(polled).not.toContain("8Redis000001");
  });

  it("answers 500 internal_error, naming no Redis address, while Redis cannot be reached", async () => {
    const away = await sidecar(undefined, "redis://:hunter2secret@127.0.0.1:1");
    const answer = await away.call("/v1/events", { wait_ms: 0 });
    expect(answer).toEqual({ error: { code: "internal_error", message: expect.stringContaining("event store") } });
    expect(JSON.stringify(answer)).not.toContain("hunter2secret");
  });
});
