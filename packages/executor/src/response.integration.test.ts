import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Executor } from "./create-executor.js";
import type { Envelope } from "./envelope.js";
import { createLoopbackDispatcher, createTestCertificates } from "@eleven-integrations/test-support";
import { createExecutor } from "./create-executor.js";
import { startEndlessBodyProcess } from "./test-support/endless-body-process.js";
import { startHarness, type Harness } from "./test-support/harness.js";
import { EXAMPLE_HOST, testRegistry } from "./test-support/test-registry.js";

let harness: Harness;
let executor: Executor;
const timers = new Set<NodeJS.Timeout>();
beforeAll(async () => {
  harness = await startHarness();
  executor = harness.executor();
});
afterAll(async () => {
  for (const timer of timers) clearTimeout(timer);
  await harness.close();
});
beforeEach(() => {
  harness.server.requests.length = 0;
});

const credential = { token: "t" };
const run = (op: string, limits?: Parameters<Harness["executor"]>[0]) =>
  (limits === undefined ? executor : harness.executor(limits)).run({ integration: "example", op, credential });
const MiB = 1024 * 1024;

describe("response size", () => {
  it("aborts a 20 MiB streamed body at maxResponseBytes, holding no more than that", async () => {
    // The server runs in a child process so the memory measured here is the client's alone
    // (in one process, its own socket buffers counted too, and Node 24's larger young
    // generation pushed that sum past the bound although the executor held no more).
    const certificates = await createTestCertificates([EXAMPLE_HOST]);
    const endless = await startEndlessBodyProcess(certificates, 20 * MiB);
    const dispatcher = createLoopbackDispatcher(certificates.ca, { [EXAMPLE_HOST]: endless.port });
    try {
      const isolated = createExecutor({ registry: testRegistry(), dispatcher, limits: { maxResponseBytes: 2 * MiB } });
      const request = { integration: "example", op: "raw.get", credential };
      // A first run warms what a second does not pay again (compiled code, TLS, the
      // connection pool), so the second measures the body alone.
      expect(await isolated.run(request)).toMatchObject({ error: { code: "response_too_large" } });
      const producedBefore = await endless.produced();
      globalThis.gc?.();
      const baseline = process.memoryUsage().rss;
      let peak = baseline;
      const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 2);
      const envelope = await isolated.run(request);
      clearInterval(sampler);
      peak = Math.max(peak, process.memoryUsage().rss);
      expect(envelope).toMatchObject({
        status: "error",
        error: { code: "response_too_large", http_status: 200, next_action: expect.stringMatching(/narrow/i) },
      });
      expect((await endless.produced()) - producedBefore).toBeLessThan(20 * MiB);
      expect(peak - baseline).toBeLessThan(16 * MiB);
    } finally {
      await dispatcher.destroy();
      await endless.close();
    }
  });

  it("refuses a body whose content-length is over the limit without reading it", async () => {
    harness.server.handle((_request, reply) => reply.header("content-type", "application/json").send(Buffer.alloc(3 * MiB, 0x20)));
    const envelope = await run("raw.get", { maxResponseBytes: 2 * MiB });
    expect(envelope).toMatchObject({ error: { code: "response_too_large", message: expect.stringMatching(/3145728 seen/) } });
  });

  it("reads a body of exactly maxResponseBytes", async () => {
    harness.server.handle((_request, reply) => reply.header("content-type", "application/json").send(`"${"a".repeat(998)}"`));
    expect(await run("raw.get", { maxResponseBytes: 1000 })).toMatchObject({ status: "ok", data: "a".repeat(998) });
  });

  it("bounds what concurrent runs hold together, each waiting its turn rather than failing", async () => {
    harness.server.handle((_request, reply) => reply.header("content-type", "application/json").send(`"${"b".repeat(600 * 1024)}"`));
    const shared = harness.executor({ maxResponseBytes: 1 * MiB, maxBufferedBytes: 1 * MiB, maxResultBytes: 2 * MiB });
    const envelopes = await Promise.all(Array.from({ length: 6 }, () => shared.run({ integration: "example", op: "raw.get", credential })));
    expect(envelopes.map((envelope) => envelope.status)).toEqual(Array(6).fill("ok"));
  });
});

describe("deadline", () => {
  it("ends a server that sends its headers late in timeout, within the deadline", async () => {
    harness.server.handle((_request, reply) => {
      timers.add(setTimeout(() => void reply.send({ late: true }), 5_000));
      return reply;
    });
    const started = performance.now();
    const envelope = await run("items.list", { timeoutMs: 1_500 });
    const elapsed = performance.now() - started;
    expect(envelope).toMatchObject({ status: "error", error: { code: "timeout", message: expect.stringMatching(/within 1500 ms/) } });
    // undici's headers timer (set to the time left) runs on a coarse clock and may end it up to 0.5 s early.
    expect(elapsed).toBeGreaterThanOrEqual(950);
    expect(elapsed).toBeLessThan(3_000);
    expect(harness.server.requests).toHaveLength(1);
  });

  it("ends a body dripped one byte at a time in timeout, within the deadline", async () => {
    harness.server.handle((_request, reply) => {
      reply.hijack();
      reply.raw.writeHead(200, { "content-type": "application/json" });
      const drip = setInterval(() => reply.raw.write(" "), 20);
      timers.add(drip);
      reply.raw.on("close", () => clearInterval(drip));
    });
    const started = performance.now();
    const envelope = await run("raw.get", { timeoutMs: 1_500 });
    const elapsed = performance.now() - started;
    expect(envelope).toMatchObject({ status: "error", error: { code: "timeout", next_action: expect.stringMatching(/did not answer in time/) } });
    expect(elapsed).toBeGreaterThanOrEqual(1_490);
    expect(elapsed).toBeLessThan(3_000);
  });
});

describe("what the body is", () => {
  const compressed = gzipSync(JSON.stringify([{ id: 1 }]));

  it.each(["items.list", "raw.get"])("a gzip-encoded body is bad_response (%s)", async (op) => {
    harness.server.handle((_request, reply) => reply.header("content-type", "application/json").header("content-encoding", "gzip").send(compressed));
    expect(await run(op)).toMatchObject({ error: { code: "bad_response", message: expect.stringMatching(/content-encoding: gzip/) } });
  });

  it("accepts content-encoding: identity", async () => {
    harness.server.handle((_request, reply) => reply.header("content-type", "application/json").header("content-encoding", "identity").send('[{"id":1}]'));
    expect(await run("items.list")).toMatchObject({ status: "ok", data: [{ id: 1 }] });
  });

  it("an HTML body where pick is declared is bad_response", async () => {
    harness.server.handle((_request, reply) => reply.header("content-type", "text/html; charset=utf-8").send("<html><body>Sign in</body></html>"));
    expect(await run("items.list")).toMatchObject({ error: { code: "bad_response", message: expect.stringMatching(/text\/html, not JSON/) } });
  });

  it("a body labelled JSON that does not parse is bad_response", async () => {
    harness.server.handle((_request, reply) => reply.header("content-type", "application/json").send("[{]"));
    expect(await run("items.list")).toMatchObject({ error: { code: "bad_response", message: expect.stringMatching(/not valid JSON/) } });
    expect(await run("raw.get")).toMatchObject({ error: { code: "bad_response" } });
  });

  it("without pick, JSON comes back parsed and text as a string; an empty body as null", async () => {
    harness.server.handle((_request, reply) => reply.header("content-type", "application/problem+json").send('{"a":[1,"two",null]}'));
    expect(await run("raw.get")).toEqual({ status: "ok", integration: "example", op: "raw.get", http_status: 200, data: { a: [1, "two", null] } });
    harness.server.handle((_request, reply) => reply.header("content-type", "text/plain").send("pong"));
    expect(await run("raw.get")).toMatchObject({ status: "ok", data: "pong" });
    harness.server.handle((_request, reply) => reply.code(204).send());
    expect(await run("raw.get")).toMatchObject({ status: "ok", http_status: 204, data: null });
  });

  it("__proto__ and constructor keys cannot pollute the output", async () => {
    const hostile =
      '[{"id":1,"__proto__":{"polluted":"yes"},"constructor":{"prototype":{"polluted":"yes"}},"name":{"__proto__":{"admin":true}},"user":{"login":"u","__proto__":{"x":1}}}]';
    harness.server.handle((_request, reply) => reply.header("content-type", "application/json").send(hostile));
    for (const op of ["items.list", "raw.get"]) {
      const envelope = await run(op);
      expect(envelope.status).toBe("ok");
      const [item] = (envelope as Extract<Envelope, { status: "ok" }>).data as Record<string, unknown>[];
      expect(Object.getPrototypeOf(item)).toBeNull();
      expect(item?.polluted).toBeUndefined();
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      expect(({} as Record<string, unknown>).admin).toBeUndefined();
      expect(Object.prototype).not.toHaveProperty("polluted");
    }
    const picked = (await run("items.list")) as Extract<Envelope, { status: "ok" }>;
    expect(JSON.stringify(picked.data)).toBe('[{"id":1,"user.login":"u"}]');
  });

  it("a 100,000-deep body overflows nothing: refused where it is walked, dropped where it is not", async () => {
    const depth = 100_000;
    const deepArray = "[".repeat(depth) + "]".repeat(depth);
    const deepObject = `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;
    for (const body of [deepArray, deepObject, `{"data":${deepObject}}`]) {
      harness.server.handle((_request, reply) => reply.header("content-type", "application/json").send(body));
      expect(await run("raw.get")).toMatchObject({ error: { code: "bad_response", message: expect.stringMatching(/deeper than 64 levels/) } });
    }
    expect(await run("items.root")).toMatchObject({ error: { code: "bad_response", message: expect.stringMatching(/deeper than 64/) } });
    harness.server.handle((_request, reply) => reply.header("content-type", "application/json").send(`[{"id":1,"user":${deepObject},"labels":${deepArray}}]`));
    expect(await run("items.list")).toMatchObject({ error: { code: "bad_response", message: expect.stringMatching(/deeper than 64/) } });
    harness.server.handle((_request, reply) => reply.header("content-type", "application/json").send(`[{"id":1,"user":${deepObject}}]`));
    expect(await run("items.list")).toMatchObject({ status: "ok", data: [{ id: 1 }] });
    harness.server.handle((_request, reply) => reply.header("content-type", "application/json").send(deepArray));
    expect(await run("items.list")).toMatchObject({ status: "ok", data: [] });
  });
});
