import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Executor } from "./create-executor.js";
import type { Envelope, OkEnvelope } from "./envelope.js";
import { MAX_PAGE_TOKEN_LENGTH } from "./page-token.js";
import { OTHER_HOST, PROVIDER_HOST } from "./test-support/provider-registry.js";
import { startProviderHarness, type ProviderHarness } from "./test-support/provider-harness.js";
import type { TestHandler } from "./test-support/test-server.js";

let harness: ProviderHarness;
let executor: Executor;
beforeAll(async () => {
  harness = await startProviderHarness();
  executor = harness.executor();
});
afterAll(() => harness.close());
beforeEach(() => {
  harness.server.requests.length = 0;
  harness.other.requests.length = 0;
});

const credential = { token: "t" };
const json =
  (body: unknown, headers: Record<string, string> = {}): TestHandler =>
  (_request, reply) =>
    reply.headers({ "content-type": "application/json", ...headers }).send(JSON.stringify(body));
const nextPage = (envelope: Envelope): string => {
  expect(envelope.status).toBe("ok");
  const token = (envelope as OkEnvelope).next_page;
  expect(typeof token).toBe("string");
  return token as string;
};
const urls = () => harness.server.requests.map((request) => request.url);

describe("body cursor (Slack response_metadata.next_cursor)", () => {
  it("hands out next_page exactly when there is more, and the page runs the same op with the cursor escaped", async () => {
    harness.server.handle((request, reply) =>
      request.url.includes("cursor=")
        ? reply.send({ ok: true, channels: [{ id: "C3", name: "c" }], response_metadata: { next_cursor: "" } })
        : reply.send({
            ok: true,
            channels: [
              { id: "C1", name: "a", topic: "x" },
              { id: "C2", name: "b" },
            ],
            response_metadata: { next_cursor: "dGVhbTpDMDYxRkE1UEI=" },
          }),
    );
    const first = await executor.run({ integration: "flag", op: "channels.list", credential });
    expect(first).toMatchObject({
      status: "ok",
      data: [
        { id: "C1", name: "a" },
        { id: "C2", name: "b" },
      ],
    });
    const token = nextPage(first);
    expect(token.length).toBeLessThanOrEqual(MAX_PAGE_TOKEN_LENGTH);
    expect(token).not.toContain("dGVhbTpDMDYxRkE1UEI=");

    const second = await executor.run({ integration: "flag", op: "channels.list", credential, page: token });
    expect(second).toEqual({ status: "ok", integration: "flag", op: "channels.list", http_status: 200, data: [{ id: "C3", name: "c" }] });
    expect(urls()).toEqual(["/api/conversations.list?limit=2", "/api/conversations.list?limit=2&cursor=dGVhbTpDMDYxRkE1UEI%3D"]);
  });

  it("a page that names the cursor arg too takes the page's cursor (the same args as the first run)", async () => {
    harness.server.handle(json({ ok: true, channels: [], response_metadata: { next_cursor: "next" } }));
    const token = nextPage(await executor.run({ integration: "flag", op: "channels.list", args: { cursor: "first" }, credential }));
    await executor.run({ integration: "flag", op: "channels.list", args: { cursor: "first" }, credential, page: token });
    expect(urls()[1]).toBe("/api/conversations.list?limit=2&cursor=next");
  });
});

describe("GraphQL pageInfo (Linear endCursor with hasNextPage)", () => {
  it("pages through the body's variables, and stops when hasNextPage is false", async () => {
    const pageOf = (after: unknown) =>
      after === undefined
        ? { data: { teams: { nodes: [{ id: "t1" }, { id: "t2" }], pageInfo: { hasNextPage: true, endCursor: "YXJyYXljb25uZWN0aW9uOjE=" } } } }
        : { data: { teams: { nodes: [{ id: "t3" }], pageInfo: { hasNextPage: false, endCursor: "YXJyYXljb25uZWN0aW9uOjI=" } } } };
    harness.server.handle((request, reply) => reply.send(pageOf((JSON.parse(request.body) as { variables: { after?: string } }).variables.after)));
    const first = await executor.run({ integration: "graph", op: "teams.list", credential });
    const second = await executor.run({ integration: "graph", op: "teams.list", credential, page: nextPage(first) });
    expect(second).toEqual({ status: "ok", integration: "graph", op: "teams.list", http_status: 200, data: [{ id: "t3" }] });
    expect(JSON.parse(harness.server.requests[1]?.body ?? "").variables).toEqual({ after: "YXJyYXljb25uZWN0aW9uOjE=" });
  });
});

describe("last item's key (Stripe starting_after with has_more)", () => {
  it("takes the last item's id while has_more is true", async () => {
    harness.server.handle((request, reply) =>
      request.url.includes("starting_after=cus_2")
        ? reply.send({ object: "list", data: [{ id: "cus_3" }], has_more: false, url: "/v1/customers" })
        : reply.send({ object: "list", data: [{ id: "cus_1" }, { id: "cus_2" }], has_more: true, url: "/v1/customers" }),
    );
    const first = await executor.run({ integration: "rest", op: "customers.list", credential });
    const second = await executor.run({ integration: "rest", op: "customers.list", credential, page: nextPage(first) });
    expect(second).toMatchObject({ status: "ok", data: [{ id: "cus_3" }] });
    expect((second as OkEnvelope).next_page).toBeUndefined();
    expect(urls()[1]).toBe("/v1/customers?limit=2&starting_after=cus_2");
  });
});

describe("body cursor with a more flag (Notion has_more + next_cursor, sent in a POST body)", () => {
  it("puts the cursor in the body and only while has_more is true", async () => {
    harness.server.handle(json({ object: "list", results: [{ id: "p1" }], next_cursor: "fe2cc560-036c-44cd-90e8-294d5a74cebc", has_more: true }));
    const first = await executor.run({ integration: "rest", op: "blocks.search", args: { query: "x" }, credential });
    await executor.run({ integration: "rest", op: "blocks.search", args: { query: "x" }, credential, page: nextPage(first) });
    expect(JSON.parse(harness.server.requests[1]?.body ?? "")).toEqual({ query: "x", start_cursor: "fe2cc560-036c-44cd-90e8-294d5a74cebc", page_size: 2 });
    harness.server.handle(json({ object: "list", results: [], next_cursor: "ignored", has_more: false }));
    expect((await executor.run({ integration: "rest", op: "blocks.search", args: { query: "x" }, credential })) as OkEnvelope).not.toHaveProperty("next_page");
  });
});

describe("Link rel=next (GitHub, GitLab)", () => {
  const linked = (link: string): TestHandler => json([{ id: 1 }, { id: 2 }], { link });
  const base = `https://${PROVIDER_HOST}/v1/user/repos`;

  it("follows a link with the same origin and path, taking only the declared query key", async () => {
    harness.server.handle(linked(`<${base}?per_page=100&page=3&access_token=stolen>; rel="next", <${base}?per_page=2&page=9>; rel="last"`));
    const first = await executor.run({ integration: "rest", op: "repos.list", credential });
    await executor.run({ integration: "rest", op: "repos.list", credential, page: nextPage(first) });
    expect(urls()).toEqual(["/v1/user/repos?per_page=2", "/v1/user/repos?per_page=2&page=3"]);
  });

  it("follows a link to a path the manifest lists in link_paths (GitHub's /repositories/<id>/issues), and no other", async () => {
    harness.server.handle(json([{ id: 1 }], { link: `<https://${PROVIDER_HOST}/v1/repositories/1300192/issues?after=Y3Vyc29yOjI%3D&per_page=2>; rel="next"` }));
    const first = await executor.run({ integration: "rest", op: "issues.list", args: { owner: "octo" }, credential });
    await executor.run({ integration: "rest", op: "issues.list", args: { owner: "octo" }, credential, page: nextPage(first) });
    expect(urls()[1]).toBe("/v1/repos/octo/issues?per_page=2&after=Y3Vyc29yOjI%3D");
    for (const path of ["/v1/repositories/1300192/pulls", "/v1/repositories/1/2/issues", "/v1/repositories//issues", "/v2/repositories/1/issues"]) {
      harness.server.handle(json([{ id: 1 }], { link: `<https://${PROVIDER_HOST}${path}?after=x>; rel="next"` }));
      expect(await executor.run({ integration: "rest", op: "issues.list", args: { owner: "octo" }, credential })).not.toHaveProperty("next_page");
    }
  });

  it("reads a relative link and several rel values", async () => {
    harness.server.handle(linked(`</v1/user/repos?page=2>; rel="prev first", </v1/user/repos?page=4>; rel="next last"`));
    const first = await executor.run({ integration: "rest", op: "repos.list", credential });
    await executor.run({ integration: "rest", op: "repos.list", credential, page: nextPage(first) });
    expect(urls()[1]).toBe("/v1/user/repos?per_page=2&page=4");
  });

  it.each([
    ["another host", `<https://${OTHER_HOST}/v1/user/repos?page=2>; rel="next"`],
    ["another scheme", `<http://${PROVIDER_HOST}/v1/user/repos?page=2>; rel="next"`],
    ["another port", `<https://${PROVIDER_HOST}:8443/v1/user/repos?page=2>; rel="next"`],
    ["another path", `<https://${PROVIDER_HOST}/v1/admin/repos?page=2>; rel="next"`],
    ["a path that only starts the same", `<https://${PROVIDER_HOST}/v1/user/repos/../../admin?page=2>; rel="next"`],
    ["user info", `<https://evil@${PROVIDER_HOST}/v1/user/repos?page=2>; rel="next"`],
    ["no declared key", `<${base}?cursor=2>; rel="next"`],
    ["only a last link", `<${base}?page=2>; rel="last"`],
    ["a protocol-relative link", `<//${OTHER_HOST}/v1/user/repos?page=2>; rel="next"`],
  ])("a link to %s yields no next_page", async (_name, link) => {
    harness.server.handle(linked(link));
    const envelope = await executor.run({ integration: "rest", op: "repos.list", credential });
    expect(envelope).toMatchObject({ status: "ok", data: [{ id: 1 }, { id: 2 }] });
    expect(envelope).not.toHaveProperty("next_page");
    expect(harness.other.requests).toHaveLength(0);
  });

  it("a cursor holding / ? # CR LF is escaped into its one query value and never changes the path or host", async () => {
    harness.server.handle(
      json([{ id: 1 }], { link: `<https://${PROVIDER_HOST}/v1/repos/octo/issues?after=a%2F..%2F..%3Fx%3D1%23frag%40${OTHER_HOST}>; rel="next"` }),
    );
    const first = await executor.run({ integration: "rest", op: "issues.list", args: { owner: "octo" }, credential });
    await executor.run({ integration: "rest", op: "issues.list", args: { owner: "octo" }, credential, page: nextPage(first) });
    expect(urls()[1]).toBe(`/v1/repos/octo/issues?per_page=2&after=a%2F..%2F..%3Fx%3D1%23frag%40${OTHER_HOST}`);
    expect(harness.server.requests[1]?.headers.host).toBe(PROVIDER_HOST);
    expect(harness.other.requests).toHaveLength(0);
  });
});

describe("hostile cursors and pages", () => {
  it.each([
    ["CR/LF", "abc\r\nHost: other.provider.example"],
    ["a bidi override", "abc\u202Egpj.exe"],
    ["a zero-width space", "abc\u200Bdef"],
  ])("a cursor holding %s is refused when the page is run, and nothing is sent", async (_name, cursor) => {
    harness.server.handle(json({ items: [{ id: "e1" }], nextPageToken: cursor }));
    const first = await executor.run({ integration: "rest", op: "events.list", args: { calendar: "primary" }, credential });
    const envelope = await executor.run({ integration: "rest", op: "events.list", args: { calendar: "primary" }, credential, page: nextPage(first) });
    expect(envelope).toMatchObject({ status: "error", error: { code: "invalid_args", message: expect.stringContaining("page_token") } });
    expect(harness.server.requests).toHaveLength(1);
  });

  it("a cursor holding / ? # is escaped as one query value", async () => {
    harness.server.handle(json({ items: [{ id: "e1" }], nextPageToken: "a/b?c=d#e&maxResults=1000" }));
    const first = await executor.run({ integration: "rest", op: "events.list", args: { calendar: "primary" }, credential });
    await executor.run({ integration: "rest", op: "events.list", args: { calendar: "primary" }, credential, page: nextPage(first) });
    expect(urls()[1]).toBe("/v1/calendars/primary/events?maxResults=2&pageToken=a%2Fb%3Fc%3Dd%23e%26maxResults%3D1000");
  });

  describe("a page is refused with nothing sent when", () => {
    let token: string;
    beforeAll(async () => {
      harness.server.handle(json({ ok: true, channels: [], response_metadata: { next_cursor: "c2" } }));
      token = nextPage(await executor.run({ integration: "flag", op: "channels.list", credential }));
    });
    const refused = async (request: Parameters<Executor["run"]>[0], runner: Executor = executor) => {
      harness.server.requests.length = 0;
      const envelope = await runner.run(request);
      expect(envelope).toMatchObject({ status: "error", error: { code: "invalid_args" } });
      expect(runner.validate(request)).toMatchObject({ error: { code: "invalid_args" } });
      expect(harness.server.requests).toHaveLength(0);
      return envelope;
    };

    it("it was made for another op of the same integration", async () => {
      await refused({ integration: "flag", op: "users.list", credential, page: token });
    });
    it("it was made for other args", async () => {
      harness.server.handle(json({ items: [], nextPageToken: "n" }));
      const events = nextPage(await executor.run({ integration: "rest", op: "events.list", args: { calendar: "primary" }, credential }));
      await refused({ integration: "rest", op: "events.list", args: { calendar: "work" }, credential, page: events });
      await refused({ integration: "rest", op: "events.list", credential, page: events });
    });
    it("one byte of it is changed, anywhere", async () => {
      for (let index = 0; index < token.length; index += 1) {
        const changed = token.slice(0, index) + (token[index] === "A" ? "B" : "A") + token.slice(index + 1);
        await refused({ integration: "flag", op: "channels.list", credential, page: changed });
      }
      await refused({ integration: "flag", op: "channels.list", credential, page: `${token}A` });
      await refused({ integration: "flag", op: "channels.list", credential, page: "x".repeat(2000) });
      await refused({ integration: "flag", op: "channels.list", credential, page: 42 as unknown as string });
    });
    it("another executor made it (another key), or the op does not page", async () => {
      await refused({ integration: "flag", op: "channels.list", credential, page: token }, harness.executor());
      await refused({ integration: "rest", op: "items.get", args: { id: "1" }, credential, page: token });
    });
    it("but executors sharing a pageKey accept each other's pages", async () => {
      const key = randomBytes(32);
      const one = harness.executor({ pageKey: key });
      const two = harness.executor({ pageKey: key });
      harness.server.handle(json({ ok: true, channels: [], response_metadata: { next_cursor: "c2" } }));
      const shared = nextPage(await one.run({ integration: "flag", op: "channels.list", credential }));
      expect(await two.run({ integration: "flag", op: "channels.list", credential, page: shared })).toMatchObject({ status: "ok" });
    });
  });
});

describe("every page is a run like the first", () => {
  it("pick applies to every page and the result cap too", async () => {
    let count = 0;
    harness.server.handle((_request, reply) => {
      count += 1;
      const channels = count === 1 ? [{ id: "C1", name: "a", secret: "s" }] : [{ id: "C2", name: "b".repeat(60_000), secret: "s" }];
      return reply.send({ ok: true, channels, response_metadata: { next_cursor: `c${count + 1}` } });
    });
    const first = await executor.run({ integration: "flag", op: "channels.list", credential });
    expect(first).toMatchObject({ data: [{ id: "C1", name: "a" }] });
    expect(JSON.stringify(first)).not.toContain("secret");
    const second = await executor.run({ integration: "flag", op: "channels.list", credential, page: nextPage(first) });
    expect(second).toMatchObject({ status: "error", error: { code: "result_too_large" } });
  });

  it("a failure on a later page is an error like any other", async () => {
    harness.server.handle(json({ ok: true, channels: [], response_metadata: { next_cursor: "c2" } }));
    const first = await executor.run({ integration: "flag", op: "channels.list", credential });
    harness.server.handle(json({ ok: false, error: "invalid_cursor" }));
    expect(await executor.run({ integration: "flag", op: "channels.list", credential, page: nextPage(first) })).toMatchObject({
      status: "error",
      error: { code: "upstream_error", http_status: 200, provider: { code: "invalid_cursor" } },
    });
  });

  it("a cursor too long to fit 1 KiB is bad_response rather than a silent last page", async () => {
    harness.server.handle(json({ ok: true, channels: [], response_metadata: { next_cursor: "c".repeat(1000) } }));
    expect(await executor.run({ integration: "flag", op: "channels.list", credential })).toMatchObject({ status: "error", error: { code: "bad_response" } });
  });

  it("an op without paging never has next_page, whatever its answer says", async () => {
    harness.server.handle(json({ id: "1", next_cursor: "x", has_more: true }, { link: `<https://${PROVIDER_HOST}/v1/items/1?page=2>; rel="next"` }));
    expect(await executor.run({ integration: "rest", op: "items.get", args: { id: "1" }, credential })).not.toHaveProperty("next_page");
  });
});
