import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Executor } from "./create-executor.js";
import { startHarness, type Harness } from "./test-support/harness.js";

let harness: Harness;
let executor: Executor;
beforeAll(async () => {
  harness = await startHarness((_request, reply) => reply.send({ id: 7 }));
  executor = harness.executor();
});
afterAll(() => harness.close());
beforeEach(() => {
  harness.server.requests.length = 0;
});

const credential = { token: "tok_4f2a9" };
const received = () => {
  const [request] = harness.server.requests;
  if (request === undefined || harness.server.requests.length !== 1) throw new Error("expected exactly one request");
  return request;
};

describe("authorization and headers", () => {
  it("sends `<scheme> <token>`, then the manifest's headers, and a user agent", async () => {
    await executor.run({ integration: "example", op: "items.list", credential });
    const { headers } = received();
    expect(headers.authorization).toBe("Bearer tok_4f2a9");
    expect(headers.accept).toBe("application/vnd.example+json");
    expect(headers["x-api-version"]).toBe("2024-01-01");
    expect(headers["user-agent"]).toBe("eleven-integrations-executor");
    expect(headers["content-type"]).toBeUndefined();
    expect(headers.cookie).toBeUndefined();
  });

  it("sends the bare token for `none`", async () => {
    await executor.run({ integration: "bare", op: "viewer.get", credential: { token: "lin_api_123" } });
    const { headers, url } = received();
    expect(headers.authorization).toBe("lin_api_123");
    expect(headers.host).toBe("api.bare.example.org");
    expect(url).toBe("/viewer");
  });

  it("sends a token from the OAuth flow with the manifest's oauth.authorization scheme, a personal one with auth.authorization", async () => {
    await executor.run({ integration: "bare", op: "viewer.get", credential: { token: "lin_oauth_456", kind: "oauth" } });
    expect(received().headers.authorization).toBe("Bearer lin_oauth_456");
    harness.server.requests.length = 0;
    await executor.run({ integration: "bare", op: "viewer.get", credential: { token: "lin_api_123", kind: "pat" } });
    expect(received().headers.authorization).toBe("lin_api_123");
    harness.server.requests.length = 0;
    // Without oauth.authorization, an OAuth token uses auth.authorization like any other.
    await executor.run({ integration: "example", op: "items.list", credential: { token: "tok_oauth", kind: "oauth" } });
    expect(received().headers.authorization).toBe("Bearer tok_oauth");
  });
});

describe("JSON bodies", () => {
  it("renders the template with the args, as application/json", async () => {
    const envelope = await executor.run({
      integration: "example",
      op: "items.create",
      args: { title: "Bug", body: "Steps:\n1. run", label: "p1" },
      credential,
    });
    expect(envelope).toMatchObject({ status: "ok", http_status: 200, data: { id: 7 } });
    const { method, headers, body, url } = received();
    expect(method).toBe("POST");
    expect(url).toBe("/v2/items");
    expect(headers["content-type"]).toBe("application/json");
    expect(JSON.parse(body)).toEqual({ title: "Bug", body: "Steps:\n1. run", labels: ["bot"], meta: { label: "p1", query: "{ viewer { id } }" } });
  });

  it("drops the key of an optional arg that was not given", async () => {
    await executor.run({ integration: "example", op: "items.create", args: { title: "Bug" }, credential });
    expect(JSON.parse(received().body)).toEqual({ title: "Bug", labels: ["bot"], meta: { query: "{ viewer { id } }" } });
  });

  it("keeps a value that looks like JSON one string", async () => {
    const title = '", "admin": true, "x": "';
    await executor.run({ integration: "example", op: "items.create", args: { title, body: "}{\\u0000</script>" }, credential });
    const body = JSON.parse(received().body) as Record<string, unknown>;
    expect(body.title).toBe(title);
    expect(body.body).toBe("}{\\u0000</script>");
    expect(body).not.toHaveProperty("admin");
    expect(Object.keys(body)).toEqual(["title", "body", "labels", "meta"]);
  });

  it("sends a read that must be a POST (GraphQL) with its literal query", async () => {
    harness.server.handle((_request, reply) => reply.send({ data: { viewer: { id: "u1" } } }));
    const envelope = await executor.run({ integration: "example", op: "graph.query", credential });
    expect(envelope).toMatchObject({ status: "ok", data: { viewer: { id: "u1" } } });
    expect(JSON.parse(received().body)).toEqual({ query: "{ viewer { id } }" });
    harness.server.handle((_request, reply) => reply.send({ id: 7 }));
  });

  it.each([
    ["PATCH", "items.update", { id: "42", title: "New" }, '{"title":"New"}'],
    ["PUT", "items.replace", { id: "42" }, ""],
    ["DELETE", "items.delete", { id: "42" }, ""],
  ])("sends %s to its path with its body", async (method, op, args, body) => {
    await executor.run({ integration: "example", op, args, credential });
    expect(received()).toMatchObject({ method, url: "/v2/items/42", body });
  });
});

describe("form bodies", () => {
  it("encodes the tree as Stripe expects: bracketed keys, RFC 3986 values", async () => {
    await executor.run({
      integration: "example",
      op: "customers.create",
      args: { email: "jenny+1@example.com", plan: "pro", name: "Jenny Rosen" },
      credential,
    });
    const { headers, body } = received();
    expect(headers["content-type"]).toBe("application/x-www-form-urlencoded");
    expect(body).toBe("email=jenny%2B1%40example.com&name=Jenny%20Rosen&metadata[plan]=pro&expand[0]=default_source");
    expect(new URLSearchParams(body).get("metadata[plan]")).toBe("pro");
  });

  it("drops an optional arg not given, and keeps a value with & and = one value", async () => {
    await executor.run({ integration: "example", op: "customers.create", args: { email: "a@b.c&metadata[plan]=free" }, credential });
    const params = new URLSearchParams(received().body);
    expect([...params.keys()]).toEqual(["email", "expand[0]"]);
    expect(params.get("email")).toBe("a@b.c&metadata[plan]=free");
  });
});
