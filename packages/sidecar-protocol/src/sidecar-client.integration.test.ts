import { createServer } from "node:net";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { sendJson, startOnLoopback, startOnSocket, type StandIn } from "./__fixtures__/stand-in-sidecar.js";
import { createSidecarClient, type SidecarClient } from "./sidecar-client.js";
import { SidecarClientError } from "./sidecar-client-error.js";

const TOKEN = "caller-token-7f3a9c";
const GRANT = "eg1.sealed-grant-value-d41d8cd9";

async function rejection(promise: Promise<unknown>): Promise<SidecarClientError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!SidecarClientError.isInstance(error)) throw new Error(`expected a SidecarClientError, got ${String(error)}`);
  expect(error.message).not.toContain(TOKEN);
  expect(error.message).not.toContain(GRANT);
  return error;
}

describe("createSidecarClient over the Unix socket", () => {
  let sidecar: StandIn & { socketPath: string };
  let client: SidecarClient;
  beforeEach(async () => {
    sidecar = await startOnSocket();
    client = createSidecarClient({ socketPath: sidecar.socketPath }, { callerToken: TOKEN, timeoutMs: 2000, maxAnswerBytes: 64 * 1024 });
  });
  afterEach(async () => {
    await client.close();
    await sidecar.close();
  });

  it("sends the caller token, Host: localhost and the JSON body, and resolves with the answer as sent", async () => {
    const answer = { status: "ok", integration: "github", op: "repos.list", http_status: 200, data: [{ name: "a" }], next_page: "p2", some_future_field: 1 };
    sidecar.handle((_request, response) => sendJson(response, 200, answer));
    const body = { grant: GRANT, op: "repos.list", args: { per_page: "1" } };
    await expect(client.run(body)).resolves.toEqual(answer);
    const [seen] = sidecar.seen;
    expect(seen).toMatchObject({ method: "POST", url: "/v1/run" });
    expect(seen?.headers).toMatchObject({ authorization: `Bearer ${TOKEN}`, host: "localhost", "content-type": "application/json" });
    expect(JSON.parse(seen?.body ?? "")).toEqual(body);
  });

  it("calls each route at its path", async () => {
    sidecar.handle((request, response) => sendJson(response, 200, { status: "ok", route: `${request.method} ${request.url}` }));
    const routes = await Promise.all([
      client.identity(),
      client.ops({ grant: GRANT }),
      client.search({ q: "issues", grants: [GRANT] }),
      client.revoke({ revocation: "er1.x" }),
      client.whoami({ grant: GRANT }),
      client.openapi(),
    ]);
    expect(routes.map((answer) => (answer as unknown as { route: string }).route)).toEqual([
      "GET /v1/identity",
      "POST /v1/ops",
      "POST /v1/search",
      "POST /v1/revoke",
      "POST /v1/whoami",
      "GET /v1/openapi.json",
    ]);
    expect(sidecar.seen.filter((request) => request.method === "GET").every((request) => request.headers["content-type"] === undefined)).toBe(true);
  });

  it("calls the event routes at their paths with their bodies", async () => {
    sidecar.handle((request, response) => sendJson(response, 200, { events: [], next: `${request.method} ${request.url}` }));
    await expect(client.subscribe({ subscription: "es1.x", grant: GRANT })).resolves.toEqual({ events: [], next: "POST /v1/subscriptions" });
    await expect(client.events({ after: "c1", wait_ms: 10 })).resolves.toEqual({ events: [], next: "POST /v1/events" });
    expect(sidecar.seen.slice(-2).map((request) => JSON.parse(request.body))).toEqual([
      { subscription: "es1.x", grant: GRANT },
      { after: "c1", wait_ms: 10 },
    ]);
  });

  it("resolves with an error envelope: a refusal inside the route is an answer", async () => {
    const refusal = {
      status: "error",
      integration: null,
      op: "repos.list",
      error: { code: "grant_invalid", message: "grant refused", next_action: "Ask again." },
    };
    sidecar.handle((_request, response) => sendJson(response, 200, refusal));
    await expect(client.run({ grant: GRANT, op: "repos.list" })).resolves.toEqual(refusal);
  });

  it.each([
    [401, "unauthorized"],
    [403, "forbidden_host"],
    [403, "forbidden_origin"],
    [413, "body_too_large"],
    [415, "unsupported_media_type"],
    [400, "invalid_json"],
    [404, "not_found"],
    [500, "audit_unavailable"],
  ] as const)("rejects a %i %s with that code and status", async (status, code) => {
    sidecar.handle((_request, response) => sendJson(response, status, { error: { code, message: `refused, and the token was ${TOKEN}` } }));
    const error = await rejection(client.ops({ grant: GRANT }));
    expect(error).toMatchObject({ code, status, name: "SidecarClientError" });
    expect(error.message).toContain(`POST /v1/ops (${status} ${code})`);
  });

  it("rejects invalid_body with its issues, naming the paths in the message", async () => {
    const issues = [
      { path: "op", message: "must be an op id such as repos.list" },
      { path: "extra", message: "unknown key" },
    ];
    sidecar.handle((_request, response) =>
      sendJson(response, 400, { error: { code: "invalid_body", message: "the request body does not match this route's schema", issues } }),
    );
    const error = await rejection(client.run({ grant: GRANT, op: "repos.list" }));
    expect(error).toMatchObject({ code: "invalid_body", status: 400, issues });
    expect(error.message).toContain("op, extra");
  });

  it("rejects an answer it cannot read: not JSON, or a status with a body that is not the sidecar's", async () => {
    sidecar.handle((_request, response) => response.writeHead(200, { "content-type": "text/plain" }).end("hello"));
    expect(await rejection(client.identity())).toMatchObject({ code: "bad_answer", status: 200 });
    sidecar.handle((_request, response) => sendJson(response, 502, { oops: true }));
    expect(await rejection(client.identity())).toMatchObject({ code: "bad_answer", status: 502 });
    sidecar.handle((_request, response) => sendJson(response, 200, ["not", "an", "object"]));
    expect(await rejection(client.identity())).toMatchObject({ code: "bad_answer", status: 200 });
  });

  it("rejects an answer larger than maxAnswerBytes, declared or streamed", async () => {
    const big = { status: "ok", data: "x".repeat(70 * 1024) };
    sidecar.handle((_request, response) => sendJson(response, 200, big));
    expect(await rejection(client.identity())).toMatchObject({ code: "answer_too_large" });
    // Declared too large while the rest is still coming: refused at once, the body dropped without an unhandled error.
    sidecar.handle((_request, response) => {
      response.writeHead(200, { "content-type": "application/json", "content-length": 10 * 1024 * 1024 });
      response.write('{"data":"');
    });
    expect(await rejection(client.identity())).toMatchObject({ code: "answer_too_large" });
    sidecar.handle((_request, response) => {
      response.writeHead(200, { "content-type": "application/json" });
      const chunk = "x".repeat(16 * 1024);
      let sent = 0;
      const timer = setInterval(() => {
        if (response.destroyed || sent > 1000) return clearInterval(timer);
        sent += 1;
        response.write(sent === 1 ? `{"data":"${chunk}` : chunk);
      }, 2);
    });
    const started = Date.now();
    expect(await rejection(client.identity())).toMatchObject({ code: "answer_too_large" });
    expect(Date.now() - started).toBeLessThan(1500);
  });

  it("rejects with timeout when no whole answer comes within timeoutMs", async () => {
    const quick = createSidecarClient({ socketPath: sidecar.socketPath }, { callerToken: TOKEN, timeoutMs: 150 });
    sidecar.handle(() => undefined);
    const started = Date.now();
    expect(await rejection(quick.run({ grant: GRANT, op: "repos.list" }))).toMatchObject({ code: "timeout" });
    expect(Date.now() - started).toBeLessThan(1500);
    await quick.close();
  });
});

describe("createSidecarClient without a sidecar", () => {
  it("rejects with unreachable when no socket is there (ENOENT)", async () => {
    const client = createSidecarClient({ socketPath: join("/tmp", `absent-${process.pid}`, "sidecar.sock") }, { callerToken: TOKEN });
    const error = await rejection(client.identity());
    expect(error.code).toBe("unreachable");
    expect(error.message).toContain("ENOENT");
    await client.close();
  });

  it("rejects with unreachable when nothing listens on the port (ECONNREFUSED)", async () => {
    const probe = createServer();
    const port = await new Promise<number>((resolve) => probe.listen(0, "127.0.0.1", () => resolve((probe.address() as { port: number }).port)));
    await new Promise((resolve) => probe.close(resolve));
    const client = createSidecarClient({ url: `http://127.0.0.1:${port}` }, { callerToken: TOKEN });
    const error = await rejection(client.ops({ grant: GRANT }));
    expect(error.code).toBe("unreachable");
    expect(error.message).toContain("ECONNREFUSED");
    await client.close();
  });

  it.each([
    { socketPath: "sidecar.sock" },
    { url: "https://127.0.0.1:8787" },
    { url: "http://example.com:8787" },
    { url: "http://127.0.0.1:8787/v1" },
    { url: "http://u:p@127.0.0.1:1" },
    { url: "not a url" },
  ])("refuses the target %j before sending anything", (target) => {
    expect(() => createSidecarClient(target, { callerToken: TOKEN })).toThrow(expect.objectContaining({ code: "invalid_target" }));
  });

  it("refuses an empty caller token and a timeout that is no positive whole number", () => {
    expect(() => createSidecarClient({ url: "http://127.0.0.1:1" }, { callerToken: " " })).toThrow(TypeError);
    expect(() => createSidecarClient({ url: "http://127.0.0.1:1" }, { callerToken: TOKEN, timeoutMs: 0 })).toThrow(TypeError);
    expect(() => createSidecarClient({ url: "http://127.0.0.1:1" }, { callerToken: TOKEN, maxAnswerBytes: 1.5 })).toThrow(TypeError);
  });
});

describe("createSidecarClient over loopback TCP", () => {
  it("sends Host with the port, and the token", async () => {
    const sidecar = await startOnLoopback();
    sidecar.handle((_request, response) =>
      sendJson(response, 200, { public_key: "k", registry: { hash: "h", sequence: 0, source: "embedded", synced_at: null } }),
    );
    const client = createSidecarClient({ url: `${sidecar.url}/` }, { callerToken: TOKEN });
    await expect(client.identity()).resolves.toMatchObject({ public_key: "k" });
    expect(sidecar.seen[0]?.headers).toMatchObject({ host: sidecar.url.slice("http://".length), authorization: `Bearer ${TOKEN}` });
    await client.close();
    await sidecar.close();
  });
});
