import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Executor } from "./create-executor.js";
import { startHarness, type Harness } from "./test-support/harness.js";
import type { TestHandler } from "./test-support/test-server.js";

let harness: Harness;
let once: Executor;
let retrying: Executor;
beforeAll(async () => {
  harness = await startHarness();
  once = harness.executor({ retries: 0 });
  retrying = harness.executor({ timeoutMs: 5_000 });
});
afterAll(() => harness.close());
beforeEach(() => {
  harness.server.requests.length = 0;
});

const credential = { token: "t" };
const listItems = { integration: "example", op: "items.list", credential } as const;
const answer =
  (status: number, headers: Record<string, string> = {}): TestHandler =>
  (_request, reply) =>
    reply.code(status).headers(headers).send({ message: "upstream says no", token: "t" });
/** Answers each request with the next of `statuses` (the last one repeats), 200 with a list after them. */
const sequence = (statuses: number[], headers: Record<string, string> = {}): TestHandler => {
  let index = 0;
  return (_request, reply) => {
    const status = statuses[Math.min(index++, statuses.length - 1)] as number;
    return status === 200 ? reply.send([{ id: 1 }]) : reply.code(status).headers(headers).send({ message: "busy" });
  };
};

describe("status mapping", () => {
  it.each([
    [401, "unauthorized", /Reconnect Example/],
    [403, "forbidden", /scope this operation needs/],
    [404, "not_found", /Check the names and ids/],
    [400, "upstream_error", /Try again later/],
    [422, "upstream_error", /Try again later/],
    [500, "upstream_error", /status page/],
    [503, "upstream_error", /status page/],
  ])("%i is %s with http_status and a next_action, quoting nothing of the body", async (status, code, nextAction) => {
    harness.server.handle(answer(status));
    const envelope = await once.run(listItems);
    expect(envelope).toEqual({
      status: "error",
      integration: "example",
      op: "items.list",
      error: { code, message: expect.stringContaining(`Example answered ${status}`), http_status: status, next_action: expect.stringMatching(nextAction) },
    });
    expect(JSON.stringify(envelope)).not.toContain("upstream says no");
  });

  it("429 is rate_limited with retry_after_s", async () => {
    harness.server.handle(answer(429, { "retry-after": "42" }));
    expect(await once.run(listItems)).toMatchObject({
      error: { code: "rate_limited", http_status: 429, retry_after_s: 42, next_action: expect.stringMatching(/Wait 42 seconds/) },
    });
  });
});

describe("retries of GET reads", () => {
  it.each([503, 429, 502, 504])("retries %i and succeeds when the server recovers", async (status) => {
    harness.server.handle(sequence([status, status, 200], { "retry-after": "0" }));
    expect(await retrying.run(listItems)).toMatchObject({ status: "ok", data: [{ id: 1 }] });
    expect(harness.server.requests).toHaveLength(3);
  });

  it("stops after `retries` more attempts and answers with the last failure", async () => {
    harness.server.handle(sequence([429], { "retry-after": "0" }));
    expect(await retrying.run(listItems)).toMatchObject({ error: { code: "rate_limited", retry_after_s: 0 } });
    expect(harness.server.requests).toHaveLength(3);
    harness.server.requests.length = 0;
    expect(await harness.executor({ retries: 1 }).run(listItems)).toMatchObject({ error: { code: "rate_limited" } });
    expect(harness.server.requests).toHaveLength(2);
  });

  it("honours Retry-After", async () => {
    harness.server.handle(sequence([503, 200], { "retry-after": "1" }));
    const started = performance.now();
    expect(await retrying.run(listItems)).toMatchObject({ status: "ok" });
    expect(performance.now() - started).toBeGreaterThanOrEqual(990);
    expect(harness.server.requests).toHaveLength(2);
  });

  it("does not wait for a Retry-After that does not fit the deadline", async () => {
    harness.server.handle(sequence([429], { "retry-after": "30" }));
    const started = performance.now();
    expect(await retrying.run(listItems)).toMatchObject({ error: { code: "rate_limited", retry_after_s: 30 } });
    expect(performance.now() - started).toBeLessThan(2_500);
    expect(harness.server.requests).toHaveLength(1);
  });

  it("keeps every attempt inside the one deadline: a retry that hangs ends at the run's deadline", async () => {
    let count = 0;
    harness.server.handle((_request, reply) => {
      count += 1;
      return count === 1 ? reply.code(503).header("retry-after", "0").send({}) : reply;
    });
    const started = performance.now();
    expect(await harness.executor({ timeoutMs: 1_500 }).run(listItems)).toMatchObject({ error: { code: "timeout" } });
    const elapsed = performance.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(950);
    expect(elapsed).toBeLessThan(3_000);
    expect(harness.server.requests).toHaveLength(2);
  });

  it("starts no retry that cannot finish within the deadline, answering with the last failure", async () => {
    harness.server.handle((_request, reply) => {
      setTimeout(() => void reply.code(503).header("retry-after", "0").send({}), 600);
      return reply;
    });
    const started = performance.now();
    expect(await harness.executor({ timeoutMs: 1_000, retries: 5 }).run(listItems)).toMatchObject({ error: { code: "upstream_error", http_status: 503 } });
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(harness.server.requests).toHaveLength(1);
  });

  it("does not retry other statuses", async () => {
    harness.server.handle(sequence([500, 200]));
    expect(await retrying.run(listItems)).toMatchObject({ error: { code: "upstream_error", http_status: 500 } });
    expect(harness.server.requests).toHaveLength(1);
  });

  it("retries a reset connection", async () => {
    let count = 0;
    harness.server.handle((_request, reply, raw) => {
      count += 1;
      if (count === 1) return void raw.raw.socket.destroy();
      return reply.send([{ id: 2 }]);
    });
    expect(await retrying.run(listItems)).toMatchObject({ status: "ok", data: [{ id: 2 }] });
    expect(harness.server.requests).toHaveLength(2);
  });
});

describe("writes are sent exactly once, whatever comes back", () => {
  const writes = [
    ["POST", { integration: "example", op: "items.create", args: { title: "t" }, credential }],
    ["PATCH", { integration: "example", op: "items.update", args: { id: "1", title: "t" }, credential }],
    ["PUT", { integration: "example", op: "items.replace", args: { id: "1" }, credential }],
    ["DELETE", { integration: "example", op: "items.delete", args: { id: "1" }, credential }],
    ["a read POST", { integration: "example", op: "graph.query", credential }],
  ] as const;

  it.each(writes)("%s answered 503 then 429", async (_, request) => {
    for (const status of [503, 429]) {
      harness.server.requests.length = 0;
      harness.server.handle(sequence([status, 200], { "retry-after": "0" }));
      expect(await retrying.run(request)).toMatchObject({ status: "error", error: { http_status: status } });
      expect(harness.server.requests).toHaveLength(1);
    }
  });

  it.each(writes)("%s whose connection is reset after it was sent (a write: outcome_unknown; a read: network_error)", async (name, request) => {
    harness.server.handle((_request, _reply, raw) => void raw.raw.socket.destroy());
    const code = name === "a read POST" ? "network_error" : "outcome_unknown";
    expect(await retrying.run(request)).toMatchObject({ status: "error", error: { code } });
    expect(harness.server.requests).toHaveLength(1);
  });
});
