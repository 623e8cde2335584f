// Events a sidecar polls for its bot, end to end: real sidecars on 127.0.0.1 over a home
// folder (their journals), the loopback TLS stand-in for api.todoist.com copying Todoist's
// "Get Tasks" answer (see __fixtures__/todoist-stand-in.ts), real libsodium for every token.
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { issueSubscription, signRevocation, type ApprovalArgs } from "@eleven-integrations/grants";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../app.js";
import { approvalFor, bot, CALLER_TOKEN, grantFor, manifestHash, member, registry, temporaryDirectory } from "../__fixtures__/grant-kit.js";
import { httpCall } from "../__fixtures__/http-call.js";
import { startTodoistStandIn, todoistTask, type TodoistStandIn } from "../__fixtures__/todoist-stand-in.js";
import type { ServerTimeouts } from "@eleven-integrations/server-kit";
import { loadRegistry } from "@eleven-integrations/loader";
import { manifestFiles } from "@eleven-integrations/manifests";

type Loose = Record<string, unknown> & { events?: Record<string, unknown>[]; next?: string };

let todoist: TodoistStandIn;
const apps: FastifyInstance[] = [];

beforeAll(async () => {
  todoist = await startTodoistStandIn();
});

afterAll(async () => {
  await Promise.all(apps.map((app) => app.close()));
  await todoist?.close();
});

interface Sidecar {
  home: string;
  app: FastifyInstance;
  call(path: string, body: unknown): Promise<Loose>;
  status(path: string, body: unknown): Promise<number>;
}

async function sidecar(home?: string, timeouts?: ServerTimeouts): Promise<Sidecar> {
  const dir = home ?? (await temporaryDirectory("events-"));
  const app = buildApp({
    registry,
    botKeys: bot,
    trustedMembers: [member.publicKey],
    callerToken: CALLER_TOKEN,
    auditFile: join(dir, "audit.log"),
    replayFile: join(dir, "replay.log"),
    outcomeFile: join(dir, "outcomes.log"),
    revocationFile: join(dir, "revocations.log"),
    approvalFile: join(dir, "approvals.log"),
    eventFile: join(dir, "events.log"),
    dispatcher: todoist.dispatcher,
    pollEveryMs: 200,
    lifecycleEveryMs: 100,
    ...(timeouts === undefined ? {} : { timeouts }),
  });
  await app.listen({ host: "127.0.0.1", port: 0 });
  apps.push(app);
  const address = app.server.address();
  const port = typeof address === "object" && address !== null ? address.port : 0;
  const post = (path: string, body: unknown) => httpCall({ port, method: "POST", path, headers: { authorization: `Bearer ${CALLER_TOKEN}` }, body });
  return {
    home: dir,
    app,
    call: async (path, body) => (await post(path, body)).json() as Loose,
    status: async (path, body) => (await post(path, body)).statusCode,
  };
}

const WEEK = 7 * 24 * 3600;

function subscriptionFor(options: { events?: string[]; args?: Record<string, string>; ttlSeconds?: number; integration?: string } = {}): string {
  const integration = options.integration ?? "todoist";
  return issueSubscription({
    member,
    botPublicKey: bot.publicKey,
    integration,
    manifestHash: manifestHash(integration),
    events: options.events ?? ["task.added"],
    ...(options.args === undefined ? {} : { args: options.args }),
    ttlSeconds: options.ttlSeconds ?? WEEK,
  });
}

const todoistGrant = (options: { ttlSeconds?: number; access?: "read" | "write" } = {}) =>
  grantFor({ integration: "todoist", ttlSeconds: options.ttlSeconds ?? 3600, access: options.access ?? "read" });

/** Long-polls until an event satisfying `wanted` arrives (or 8 s pass), acknowledging as it goes. */
async function eventsUntil(local: Sidecar, after: string | undefined, wanted: (event: Record<string, unknown>) => boolean) {
  let cursor = after;
  const seen: Record<string, unknown>[] = [];
  const deadline = Date.now() + 8_000;
  while (Date.now() < deadline) {
    const page = await local.call("/v1/events", { ...(cursor === undefined ? {} : { after: cursor }), wait_ms: 2_000 });
    seen.push(...(page.events ?? []));
    cursor = page.next;
    if (seen.some(wanted)) break;
  }
  return { seen, next: cursor };
}

let taskCounter = 0;
function addTask(content: string): string {
  taskCounter += 1;
  const id = `7Xnew${String(taskCounter).padStart(6, "0")}`;
  todoist.tasks.unshift(todoistTask(id, content));
  return id;
}

/** Closes every sidecar started so far: what the stand-in counts from then on is the next one's. */
async function closeAll(): Promise<void> {
  await Promise.all(apps.splice(0).map((app) => app.close()));
}

function tasksPolled(): number {
  return todoist.requests.filter((request) => request.method === "GET" && request.url.startsWith("/api/v1/tasks")).length;
}

describe("POST /v1/subscriptions", () => {
  it("refuses a poll subscription without a grant, or with a grant of another integration, with a next_action", async () => {
    const local = await sidecar();
    const without = await local.call("/v1/subscriptions", { subscription: subscriptionFor() });
    expect(without).toMatchObject({ status: "error", error: { code: "grant_required", next_action: expect.stringContaining("grant") } });
    const github = await local.call("/v1/subscriptions", { subscription: subscriptionFor(), grant: grantFor() });
    expect(github).toMatchObject({ status: "error", error: { code: "grant_invalid" } });
  });

  it("refuses a subscription for an event the manifest does not declare, or sealed with a changed manifest's hash", async () => {
    const local = await sidecar();
    const undeclared = issueSubscription({
      member,
      botPublicKey: bot.publicKey,
      integration: "todoist",
      manifestHash: manifestHash("todoist"),
      events: ["task.deleted"],
      ttlSeconds: WEEK,
    });
    expect(await local.call("/v1/subscriptions", { subscription: undeclared, grant: todoistGrant() })).toMatchObject({
      status: "error",
      error: { code: "subscription_invalid", message: expect.stringContaining("task.deleted") },
    });
    const stale = issueSubscription({
      member,
      botPublicKey: bot.publicKey,
      integration: "todoist",
      manifestHash: "0".repeat(64),
      events: ["task.added"],
      ttlSeconds: WEEK,
    });
    expect(await local.call("/v1/subscriptions", { subscription: stale, grant: todoistGrant() })).toMatchObject({
      status: "error",
      error: { code: "subscription_invalid", message: expect.stringContaining("manifest changed") },
    });
  });

  it("takes the baseline at once and emits nothing for what was already there", async () => {
    const local = await sidecar();
    const before = tasksPolled();
    const answer = await local.call("/v1/subscriptions", { subscription: subscriptionFor(), grant: todoistGrant() });
    expect(answer).toMatchObject({
      status: "ok",
      integration: "todoist",
      events: ["task.added"],
      polls: [{ event: "task.added", every: 60, baseline: todoist.tasks.length }],
    });
    expect(tasksPolled() - before).toBeGreaterThanOrEqual(1);
    // Several polls later, still nothing: the baseline's items are not news.
    await new Promise((resolve) => setTimeout(resolve, 700));
    const page = await local.call("/v1/events", {});
    expect(page.events).toEqual([]);
  });
});

describe("a polled event, delivered to the bot", () => {
  it("arrives once with only the picked fields and the rendered line, and survives a restart of the sidecar", async () => {
    const local = await sidecar();
    const subscription = await local.call("/v1/subscriptions", { subscription: subscriptionFor(), grant: todoistGrant() });
    expect(subscription).toMatchObject({ status: "ok" });
    const id = addTask("Water the plants");
    const first = await eventsUntil(local, undefined, (event) => (event.data as Record<string, unknown>)["id"] === id);
    const delivered = first.seen.find((event) => (event.data as Record<string, unknown>)["id"] === id);
    expect(delivered).toEqual({
      event_id: expect.stringMatching(/^evp_[A-Za-z0-9_-]{32}$/),
      sid: subscription.sid,
      integration: "todoist",
      event: "task.added",
      at: expect.any(Number),
      data: { id, content: "Water the plants", project_id: "6Jf8VQXxpwv56VQ7", "due.string": "tomorrow" },
      line: "New task “Water the plants”",
    });
    // Polls go on; the same task is never a second event, and `next` acknowledged it.
    await new Promise((resolve) => setTimeout(resolve, 600));
    const after = await local.call("/v1/events", { after: first.next });
    expect(after.events).toEqual([]);

    // The same home, a new process: the subscription and its memory are kept, the cursor goes on.
    await local.app.close();
    const again = await sidecar(local.home);
    const second = addTask("Renew the passport");
    const resumed = await eventsUntil(again, first.next, (event) => (event.data as Record<string, unknown>)["id"] === second);
    expect(resumed.seen.map((event) => (event.data as Record<string, unknown>)["id"])).toEqual([second]);
    expect(resumed.seen.every((event) => event.event_id !== delivered?.event_id)).toBe(true);
  });

  it("answers an unknown cursor (a lost journal) truncated, with what it knows", async () => {
    const local = await sidecar();
    const page = await local.call("/v1/events", { after: "someOtherEpoch.12" });
    expect(page).toMatchObject({ truncated: true, events: [], next: expect.any(String) });
  });

  it("holds a long poll past the server's idle timeout, and answers as soon as an event comes", async () => {
    const local = await sidecar(undefined, { idleMs: 1_000 });
    const started = Date.now();
    const empty = await local.call("/v1/events", { wait_ms: 2_500 });
    expect(empty.events).toEqual([]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(2_400);
    await local.call("/v1/subscriptions", { subscription: subscriptionFor(), grant: todoistGrant() });
    const waiting = local.call("/v1/events", { after: empty.next, wait_ms: 10_000 });
    const id = addTask("Answer at once");
    const woke = Date.now();
    const page = await waiting;
    expect((page.events ?? []).map((event) => (event.data as Record<string, unknown>)["id"])).toContain(id);
    expect(Date.now() - woke).toBeLessThan(5_000);
  });
});

describe("a subscription ends", () => {
  it("stops polling once the member revokes it through POST /v1/revoke", async () => {
    await closeAll();
    const local = await sidecar();
    const sealed = subscriptionFor();
    const added = await local.call("/v1/subscriptions", { subscription: sealed, grant: todoistGrant() });
    const revoked = await local.call("/v1/revoke", { revocation: signRevocation({ member, grant: sealed }) });
    expect(revoked).toMatchObject({ status: "ok", sid: added.sid, integration: "todoist" });
    const before = tasksPolled();
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(tasksPolled()).toBe(before);
    // Sent again, it is refused: the member ended it.
    expect(await local.call("/v1/subscriptions", { subscription: sealed, grant: todoistGrant() })).toMatchObject({
      status: "error",
      error: { code: "subscription_invalid", message: expect.stringContaining("revoked") },
    });
  });

  it("stops a poll whose grant was revoked, and says so with grant.revoked", async () => {
    await closeAll();
    const local = await sidecar();
    const grant = todoistGrant();
    const added = await local.call("/v1/subscriptions", { subscription: subscriptionFor(), grant });
    expect(await local.call("/v1/revoke", { revocation: signRevocation({ member, grant }) })).toMatchObject({ status: "ok" });
    const { seen } = await eventsUntil(local, undefined, (event) => event.event === "grant.revoked");
    expect(seen.find((event) => event.event === "grant.revoked")).toMatchObject({ integration: "eleven", sid: added.sid, data: { sid: added.sid } });
    const before = tasksPolled();
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(tasksPolled()).toBe(before);
  });

  it("warns five minutes before the poll's grant ends (grant.expiring) and a day before the subscription does", async () => {
    const local = await sidecar();
    const added = await local.call("/v1/subscriptions", { subscription: subscriptionFor({ ttlSeconds: 3_600 }), grant: todoistGrant({ ttlSeconds: 200 }) });
    const { seen } = await eventsUntil(local, undefined, (event) => event.event === "grant.expiring");
    const kinds = seen.filter((event) => event.integration === "eleven").map((event) => event.event);
    expect(kinds).toEqual(expect.arrayContaining(["grant.expiring", "subscription.expiring"]));
    // Each once, though the sweep ran many times.
    expect(kinds.filter((kind) => kind === "grant.expiring")).toHaveLength(1);
    expect(seen.find((event) => event.event === "subscription.expiring")).toMatchObject({ sid: added.sid, data: { exp: added.exp } });
  });
});

describe("registry.changed", () => {
  it("tells the bot which ops a registry swap added, changed or removed, and says nothing for a swap that changed none", async () => {
    const local = await sidecar();
    const live = local.app.sidecar.live;
    const info = { ...live.current().info };
    live.swap(registry, { ...info, sequence: 1 });
    const changedFiles = manifestFiles.map((file) => {
      if (!file.file.endsWith("todoist.json")) return file;
      const json = structuredClone(file.json) as { ops: { id: string; label: string }[] };
      json.ops = json.ops.filter((op) => op.id !== "projects.list").map((op) => (op.id === "tasks.list" ? { ...op, label: "List open tasks" } : op));
      return { ...file, json };
    });
    const changed = loadRegistry(changedFiles);
    live.swap(changed, { ...info, hash: changed.hash, sequence: 2 });
    const { seen } = await eventsUntil(local, undefined, (event) => event.event === "registry.changed");
    const swaps = seen.filter((event) => event.event === "registry.changed");
    expect(swaps).toHaveLength(1);
    expect(swaps[0]).toMatchObject({
      integration: "eleven",
      data: { hash: changed.hash, added: [], changed: ["todoist/tasks.list"], removed: ["todoist/projects.list"] },
      line: "The registry changed: changed todoist/tasks.list; removed todoist/projects.list",
    });
  });
});

const TASK_ROOM: ApprovalArgs = { content: "any", description: "any", project_id: "any", due_string: "any" };

describe("a write under an event-bound approval", () => {
  it("runs in answer to a delivered event of its type, and refuses another type or an unknown id, sending nothing", async () => {
    const local = await sidecar();
    await local.call("/v1/subscriptions", { subscription: subscriptionFor(), grant: todoistGrant() });
    const id = addTask("Triage the inbox");
    const { seen } = await eventsUntil(local, undefined, (event) => (event.data as Record<string, unknown>)["id"] === id);
    const delivered = seen.find((event) => (event.data as Record<string, unknown>)["id"] === id);
    const grant = todoistGrant({ access: "write" });
    const budget = { runs: 5, per_seconds: 86_400 };
    const writes = () => todoist.requests.filter((request) => request.method === "POST").length;
    const before = writes();
    const approval = approvalFor({ integration: "todoist", op: "tasks.create", args: TASK_ROOM, budget, event: "task.added" });
    const ran = await local.call("/v1/run", { grant, op: "tasks.create", args: { content: "Follow up" }, approval, event_id: delivered?.event_id });
    expect(ran).toMatchObject({ status: "ok", integration: "todoist", op: "tasks.create" });
    expect(writes() - before).toBe(1);

    const otherType = approvalFor({ integration: "todoist", op: "tasks.create", args: TASK_ROOM, budget, event: "task.completed" });
    const refusedType = await local.call("/v1/run", {
      grant,
      op: "tasks.create",
      args: { content: "Follow up" },
      approval: otherType,
      event_id: delivered?.event_id,
    });
    expect(refusedType).toMatchObject({ status: "error", error: { code: "approval_invalid", message: expect.stringContaining("task.added event") } });
    const unknown = await local.call("/v1/run", { grant, op: "tasks.create", args: { content: "Follow up" }, approval, event_id: "evp_made_up" });
    expect(unknown).toMatchObject({ status: "error", error: { code: "approval_invalid" } });
    expect(writes() - before).toBe(1);
  });

  it("refuses an event delivered more than an hour ago", async () => {
    const home = await temporaryDirectory("events-old-");
    const twoHoursAgo = Math.floor(Date.now() / 1000) - 7_200;
    await writeFile(
      join(home, "events.log"),
      `${JSON.stringify({ k: "d", id: "evp_delivered_long_ago", rec: { event: "task.added", integration: "todoist", deliveredAt: twoHoursAgo } })}\n`,
      { mode: 0o600 },
    );
    const local = await sidecar(home);
    const grant = todoistGrant({ access: "write" });
    const approval = approvalFor({
      integration: "todoist",
      op: "tasks.create",
      args: TASK_ROOM,
      budget: { runs: 5, per_seconds: 86_400 },
      event: "task.added",
    });
    const before = todoist.requests.filter((request) => request.method === "POST").length;
    const answer = await local.call("/v1/run", { grant, op: "tasks.create", args: { content: "Too late" }, approval, event_id: "evp_delivered_long_ago" });
    expect(answer).toMatchObject({ status: "error", error: { code: "approval_invalid", message: expect.stringContaining("last hour") } });
    expect(todoist.requests.filter((request) => request.method === "POST").length).toBe(before);
  });
});
