import { createHash } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createExecutor } from "./create-executor.js";
import { fileBytesOf } from "./file-result.js";
import { fourthReleaseRegistry } from "./test-support/fourth-release-registry.js";
import { startFourthReleaseHarness, type FourthReleaseHarness } from "./test-support/fourth-release-harness.js";
import { API_HOST, CONTENT_HOST, QUERY_HOST } from "./test-support/fourth-release-registry.js";

let harness: FourthReleaseHarness;
beforeAll(async () => {
  harness = await startFourthReleaseHarness((_request, reply) => reply.send({ ok: true }));
});
afterAll(() => harness.close());
beforeEach(() => {
  harness.reset();
  harness.server.handle((_request, reply) => reply.send({ ok: true }));
  harness.content.handle((_request, reply) => reply.send({ content: true }));
});

const TOKEN = "tok_transport_SECRET_1";
const credential = { token: TOKEN };
const tag = (args: Record<string, string>) => ({ integration: "transport", op: "files.tag", args, credential });

describe("headers per op", () => {
  it("fills a JSON header as ASCII-only JSON (a value stays one string) and a text header as written", async () => {
    const envelope = await harness.executor.run(tag({ path: '/Homework/math/Mätrices "1".txt', key: "idem-42" }));
    expect(envelope.status).toBe("ok");
    const [request] = harness.content.requests;
    expect(request?.headers["dropbox-api-arg"]).toBe('{"path":"/Homework/math/M\\u00e4trices \\"1\\".txt","mode":"add"}');
    expect(JSON.parse(request?.headers["dropbox-api-arg"] as string)).toEqual({ path: '/Homework/math/Mätrices "1".txt', mode: "add" });
    expect(request?.headers["idempotency-key"]).toBe("idem-42");
  });

  it("leaves out a text header whose optional arg is not given", async () => {
    await harness.executor.run(tag({ path: "/a.txt" }));
    expect(harness.content.requests[0]?.headers).not.toHaveProperty("idempotency-key");
  });

  it("a control character in a JSON header's value is escaped by JSON, so it cannot start a header line", async () => {
    await harness.executor.run(tag({ path: "/a\r\nX-Evil: 1" }));
    const [request] = harness.content.requests;
    expect(request?.headers).not.toHaveProperty("x-evil");
    expect(request?.headers["dropbox-api-arg"]).toBe('{"path":"/a\\r\\nX-Evil: 1","mode":"add"}');
  });

  it.each([
    ["CR LF (header injection)", "a\r\nX-Evil: 1"],
    ["a lone LF", "a\nb"],
    ["a lone CR", "a\rb"],
    ["NUL", "a\u0000b"],
    ["another C0 control", "a\u0001b"],
    ["DEL", "a\u007fb"],
    ["a C1 control (NEL)", "a\u0085b"],
  ])("refuses %s in a text header's value: invalid_args naming arg and header, never the value, and nothing is sent", async (_name, key) => {
    const envelope = await harness.executor.run(tag({ path: "/a.txt", key }));
    expect(envelope).toMatchObject({
      status: "error",
      error: { code: "invalid_args", message: expect.stringMatching(/\{key\} cannot be sent in the Idempotency-Key header: it holds a control character/) },
    });
    expect(JSON.stringify(envelope)).not.toContain(JSON.stringify(key).slice(1, -1));
    expect(harness.executor.validate({ integration: "transport", op: "files.tag", args: { path: "/a.txt", key } })).toMatchObject({
      error: { code: "invalid_args" },
    });
    expect(harness.sent()).toBe(0);
  });

  it("refuses a non-ASCII character in a text header's value", async () => {
    const envelope = await harness.executor.run(tag({ path: "/a.txt", key: "clé" }));
    expect(envelope).toMatchObject({ error: { code: "invalid_args", message: expect.stringContaining("outside visible ASCII") } });
    expect(harness.sent()).toBe(0);
  });
});

describe("auth.credential", () => {
  it("in a header: the bare token under its name, and no Authorization", async () => {
    await harness.executor.run(tag({ path: "/a.txt" }));
    const headers = harness.content.requests[0]?.headers;
    expect(headers?.["x-test-token"]).toBe(TOKEN);
    expect(headers).not.toHaveProperty("authorization");
  });

  it("in the query: the token as the last query pair, and no Authorization", async () => {
    const envelope = await harness.executor.run({ integration: "querytoken", op: "me.get", args: { verbose: "true" }, credential });
    expect(envelope.status).toBe("ok");
    const [request] = harness.server.requests;
    expect(request?.url).toBe(`/api/v2/me?verbose=true&circle-token=${TOKEN}`);
    expect(request?.headers.host).toBe(QUERY_HOST);
    expect(request?.headers).not.toHaveProperty("authorization");
  });

  it("a next path that echoes the query credential is handed on without it, and the next run sends it once", async () => {
    harness.server.handle((_request, reply) => reply.send({ items: [1], next: `/api/v2/pipeline?page-token=p2&circle-token=${TOKEN}` }));
    const first = await harness.executor.run({ integration: "querytoken", op: "pipelines.list", credential });
    expect(first.status).toBe("ok");
    const page = (first as { next_page?: string }).next_page as string;
    expect(page).toBeDefined();
    expect(JSON.stringify(first)).not.toContain(TOKEN);
    expect(first).toMatchObject({ data: { next: "/api/v2/pipeline?page-token=p2&circle-token=[credential]" } });
    expect(Buffer.from(page.split(".")[1] as string, "base64url").toString("utf8")).toBe("/api/v2/pipeline?page-token=p2");
    await harness.executor.run({ integration: "querytoken", op: "pipelines.list", credential, page });
    expect(harness.server.requests[1]?.url).toBe(`/api/v2/pipeline?page-token=p2&circle-token=${TOKEN}`);
  });

  it("a cursor that carries the query credential is never handed out (bad_response, the token not echoed)", async () => {
    harness.server.handle((_request, reply) => reply.send({ next_page_token: `x${TOKEN}y` }));
    const envelope = await harness.executor.run({ integration: "querytoken", op: "projects.list", credential });
    expect(envelope).toMatchObject({ status: "error", error: { code: "bad_response", message: expect.stringContaining("carries the credential") } });
    expect(JSON.stringify(envelope)).not.toContain(TOKEN);
  });

  it("an error answer does not echo the query credential", async () => {
    harness.server.handle((_request, reply) => reply.code(404).send({ message: "no" }));
    const envelope = await harness.executor.run({ integration: "querytoken", op: "me.get", credential });
    expect(envelope).toMatchObject({ status: "error", error: { code: "not_found" } });
    expect(JSON.stringify(envelope)).not.toContain(TOKEN);
  });

  it("a provider's error words that quote the request URL have the query credential replaced", async () => {
    harness.server.handle((request, reply) => reply.code(400).send({ message: `Bad request for https://${QUERY_HOST}${request.url}` }));
    const envelope = await harness.executor.run({ integration: "querytoken", op: "me.get", credential });
    expect(envelope).toMatchObject({ status: "error", error: { provider: { message: expect.stringContaining("circle-token=[credential]") } } });
    expect(JSON.stringify(envelope)).not.toContain(TOKEN);
  });

  it("an OAuth token still travels as Authorization", async () => {
    await harness.executor.run({ integration: "querytoken", op: "me.get", credential: { token: TOKEN, kind: "oauth" } });
    const [request] = harness.server.requests;
    expect(request?.url).toBe("/api/v2/me");
    expect(request?.headers.authorization).toBe(`Bearer ${TOKEN}`);
  });
});

describe("further hosts: auth.hosts and op host", () => {
  it("sends an op naming a host there, under its path prefix, and nowhere else", async () => {
    await harness.executor.run(tag({ path: "/a.txt" }));
    expect(harness.content.requests).toHaveLength(1);
    expect(harness.content.requests[0]).toMatchObject({ url: "/2/files/tag", headers: { host: CONTENT_HOST } });
    expect(harness.server.requests).toHaveLength(0);
  });

  it("a redirect from one declared host to another is redirect_refused, and the other host receives nothing", async () => {
    harness.content.handle((_request, reply) => reply.code(307).header("location", `https://${API_HOST}/2/files/tag`).send());
    const envelope = await harness.executor.run(tag({ path: "/a.txt" }));
    expect(envelope).toMatchObject({ status: "error", error: { code: "redirect_refused" } });
    expect(harness.server.requests).toHaveLength(0);
  });

  it("a next path on the op's own host is followed; one to another declared host (or anywhere else) is refused", async () => {
    harness.content.handle((_request, reply) => reply.send({ next: `https://${CONTENT_HOST}/2/list?cursor=c2` }));
    const first = await harness.executor.run({ integration: "transport", op: "content.list", credential });
    const page = (first as { next_page?: string }).next_page as string;
    await harness.executor.run({ integration: "transport", op: "content.list", credential, page });
    expect(harness.content.requests[1]?.url).toBe("/2/list?cursor=c2");
    for (const next of [`https://${API_HOST}/2/list?cursor=c2`, "https://evil.example/2/list", "/3/list"]) {
      harness.content.handle((_request, reply) => reply.send({ next }));
      const envelope = await harness.executor.run({ integration: "transport", op: "content.list", credential });
      expect(envelope).toMatchObject({ status: "error", error: { code: "bad_response", message: expect.stringContaining("next page's path") } });
    }
    expect(harness.server.requests).toHaveLength(0);
    expect(harness.evil.requests).toHaveLength(0);
  });

  it("a path arg cannot leave the host's path prefix", async () => {
    const envelope = await harness.executor.run({ integration: "transport", op: "content.get", args: { id: ".." }, credential });
    expect(envelope).toMatchObject({ error: { code: "invalid_args" } });
    expect(harness.sent()).toBe(0);
  });
});

describe("offset and page-number paging", () => {
  const list = (extra: Record<string, unknown> = {}) => ({ integration: "transport", op: "files.list", args: { limit: "2" }, credential, ...extra });

  it("offset: the next offset is the offset sent plus the items returned, until total is reached", async () => {
    const answers = [
      { entries: [{ id: 1 }, { id: 2 }], total: 5 },
      { entries: [{ id: 3 }, { id: 4 }], total: 5 },
      { entries: [{ id: 5 }], total: 5 },
    ];
    harness.server.handle((_request, reply) => reply.send(answers[harness.server.requests.length - 1]));
    const first = await harness.executor.run(list());
    expect(first).toMatchObject({ status: "ok", data: [{ id: 1 }, { id: 2 }] });
    const second = await harness.executor.run(list({ page: (first as { next_page: string }).next_page }));
    const third = await harness.executor.run(list({ page: (second as { next_page: string }).next_page }));
    expect(harness.server.requests.map((request) => request.url)).toEqual(["/2/files?limit=2", "/2/files?limit=2&offset=2", "/2/files?limit=2&offset=4"]);
    expect(third).toMatchObject({ status: "ok", data: [{ id: 5 }] });
    expect(third).not.toHaveProperty("next_page");
  });

  it("offset: stops when total is reached on a full page, and on a page shorter than the limit", async () => {
    harness.server.handle((_request, reply) => reply.send({ entries: [{ id: 1 }, { id: 2 }], total: 2 }));
    expect(await harness.executor.run(list())).not.toHaveProperty("next_page");
    harness.server.handle((_request, reply) => reply.send({ entries: [{ id: 1 }] }));
    expect(await harness.executor.run(list())).not.toHaveProperty("next_page");
  });

  it("offset: the page token stays signed; a changed one, or one used with other args, is refused and nothing is sent", async () => {
    harness.server.handle((_request, reply) => reply.send({ entries: [{ id: 1 }, { id: 2 }], total: 9 }));
    const page = ((await harness.executor.run(list())) as { next_page: string }).next_page;
    harness.reset();
    const forged = `ep1.${Buffer.from("1000").toString("base64url")}.${page.split(".")[2]}`;
    expect(await harness.executor.run(list({ page: forged }))).toMatchObject({ error: { code: "invalid_args" } });
    expect(await harness.executor.run({ ...list({ page }), args: { limit: "50" } })).toMatchObject({ error: { code: "invalid_args" } });
    expect(harness.sent()).toBe(0);
  });

  it("page: the next page number is the one sent (1 first) plus one, while more is true and pages are full", async () => {
    const items = { integration: "transport", op: "items.list", credential };
    harness.server.handle((_request, reply) => reply.send({ items: [1, 2], has_more: true }));
    const first = (await harness.executor.run(items)) as { next_page: string };
    await harness.executor.run({ ...items, page: first.next_page });
    expect(harness.server.requests[1]?.url).toBe("/2/items?per_page=2&page=2");
    for (const answer of [{ items: [1, 2], has_more: false }, { items: [1], has_more: true }, { items: [], has_more: true }, { has_more: true }]) {
      harness.server.handle((_request, reply) => reply.send(answer));
      expect(await harness.executor.run(items)).not.toHaveProperty("next_page");
    }
  });
});

describe("result: file (a download)", () => {
  const download = { integration: "transport", op: "files.download", args: { path: "/Homework/math/Prime_Numbers.txt" }, credential };
  const bytes = Buffer.from(Array.from({ length: 512 }, (_, index) => index % 256));

  it("answers the file's name, size, type and SHA-256, and keeps the exact bytes beside the envelope, never in it", async () => {
    harness.content.handle((_request, reply) =>
      reply.header("content-type", "application/octet-stream").header("content-disposition", 'attachment; filename="Prime_Numbers.txt"').send(bytes),
    );
    const envelope = await harness.executor.run(download);
    expect(envelope).toMatchObject({
      status: "ok",
      data: {
        name: "Prime_Numbers.txt",
        size: 512,
        content_type: "application/octet-stream",
        sha256: createHash("sha256").update(bytes).digest("hex"),
      },
    });
    expect(fileBytesOf(envelope)?.equals(bytes)).toBe(true);
    expect(JSON.stringify(envelope).length).toBeLessThan(400);
    expect(harness.content.requests[0]).toMatchObject({ method: "POST", url: "/2/files/download" });
    expect(harness.content.requests[0]?.headers["dropbox-api-arg"]).toBe('{"path":"/Homework/math/Prime_Numbers.txt"}');
  });

  it.each([
    ['attachment; filename="../../etc/passwd"', ".._.._etc_passwd"],
    ["attachment; filename*=UTF-8''r%C3%A9sum%C3%A9.pdf", "résumé.pdf"],
    ["attachment; filename*=UTF-8''a%0D%0Ab%5C.txt", "a__b_.txt"],
    ['attachment; filename=".."', "download"],
  ])("a provider's file name (%s) is a label, never a path", async (disposition, name) => {
    harness.content.handle((_request, reply) => reply.header("content-disposition", disposition).send(bytes));
    expect(await harness.executor.run(download)).toMatchObject({ status: "ok", data: { name } });
  });

  it("a file over the response cap is response_too_large, and no bytes are kept", async () => {
    const small = createExecutor({ registry: fourthReleaseRegistry(), dispatcher: harness.dispatcher, limits: { maxResponseBytes: 256 } });
    harness.content.handle((_request, reply) => reply.send(bytes));
    const envelope = await small.run(download);
    expect(envelope).toMatchObject({ status: "error", error: { code: "response_too_large" } });
    expect(fileBytesOf(envelope)).toBeUndefined();
  });
});
