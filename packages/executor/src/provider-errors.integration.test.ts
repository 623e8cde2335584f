import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Executor } from "./create-executor.js";
import type { ErrorEnvelope } from "./envelope.js";
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
});

const credential = { token: "secret-token" };
const answer =
  (status: number, body: unknown, headers: Record<string, string> = {}): TestHandler =>
  (_request, reply) =>
    reply
      .code(status)
      .headers({ "content-type": "application/json; charset=utf-8", ...headers })
      .send(typeof body === "string" ? body : JSON.stringify(body));
const errorOf = (envelope: unknown) => (envelope as ErrorEnvelope).error;

describe("a failure inside a 2xx answer is an error (Slack's ok:false)", () => {
  it.each([
    ["invalid_auth", "unauthorized"],
    ["not_authed", "unauthorized"],
    ["missing_scope", "forbidden"],
    ["channel_not_found", "not_found"],
    ["something_new", "upstream_error"],
  ])("%s is %s with http_status 200 and the provider's code", async (code, ours) => {
    harness.server.handle(answer(200, { ok: false, error: code }));
    const envelope = await executor.run({ integration: "flag", op: "channels.list", credential });
    expect(envelope).toEqual({
      status: "error",
      integration: "flag",
      op: "channels.list",
      error: {
        code: ours,
        message: expect.stringContaining("Flag answered 200 but reported a failure"),
        http_status: 200,
        provider: { code },
        next_action: expect.any(String),
      },
    });
    expect(JSON.stringify(envelope)).not.toContain("secret-token");
  });

  it("a write that failed with channel_not_found is not_found, never ok, and is sent once", async () => {
    harness.server.handle(answer(200, { ok: false, error: "channel_not_found" }));
    const envelope = await executor.run({ integration: "flag", op: "chat.post", args: { channel: "C1", text: "hi" }, credential });
    expect(envelope).toMatchObject({ status: "error", error: { code: "not_found", http_status: 200, provider: { code: "channel_not_found" } } });
    expect(harness.server.requests).toHaveLength(1);
  });

  it("ratelimited is rate_limited with the Retry-After the provider sent", async () => {
    harness.server.handle(answer(200, { ok: false, error: "ratelimited" }, { "retry-after": "30" }));
    const envelope = await executor.run({ integration: "flag", op: "channels.list", credential });
    expect(errorOf(envelope)).toMatchObject({ code: "rate_limited", http_status: 200, retry_after_s: 30, provider: { code: "ratelimited" } });
  });

  it("an answer with ok:true is ok, and the declared message place is read too", async () => {
    harness.server.handle(answer(200, { ok: true, channels: [{ id: "C1", name: "general", extra: 1 }] }));
    expect(await executor.run({ integration: "flag", op: "channels.list", credential })).toEqual({
      status: "ok",
      integration: "flag",
      op: "channels.list",
      http_status: 200,
      data: [{ id: "C1", name: "general" }],
    });
    harness.server.handle(answer(200, { ok: false, error: "invalid_arguments", detail: "Value for `channel` is invalid." }));
    expect(errorOf(await executor.run({ integration: "flag", op: "channels.list", credential }))).toMatchObject({
      code: "upstream_error",
      provider: { code: "invalid_arguments", message: "Value for `channel` is invalid." },
    });
  });

  it("an integration without a dialect keeps the first release's behaviour", async () => {
    harness.server.handle(answer(200, { ok: false, error: "invalid_auth" }));
    expect(await executor.run({ integration: "plain", op: "items.list", credential })).toMatchObject({
      status: "ok",
      data: { ok: false, error: "invalid_auth" },
    });
    harness.server.handle(answer(404, { message: "Not Found" }));
    const error = errorOf(await executor.run({ integration: "plain", op: "items.list", credential }));
    expect(error.code).toBe("not_found");
    expect(error.provider).toBeUndefined();
  });
});

describe("GraphQL errors inside a 200 are errors", () => {
  it("errors with extensions.code map to our codes, the first error's message passed on", async () => {
    harness.server.handle(
      answer(200, {
        data: null,
        errors: [
          { message: "Authentication required, not authenticated", extensions: { code: "AUTHENTICATION_ERROR", type: "authentication error" } },
          { message: "second" },
        ],
      }),
    );
    const envelope = await executor.run({ integration: "graph", op: "teams.list", credential });
    expect(errorOf(envelope)).toMatchObject({
      code: "unauthorized",
      http_status: 200,
      provider: { code: "AUTHENTICATION_ERROR", message: "Authentication required, not authenticated" },
    });
  });

  it("partial data with errors is still an error; an empty errors array is not", async () => {
    harness.server.handle(
      answer(200, { data: { teams: { nodes: [{ id: "t1" }] } }, errors: [{ message: "Entity not found", extensions: { code: "INPUT_ERROR" } }] }),
    );
    expect(errorOf(await executor.run({ integration: "graph", op: "teams.list", credential }))).toMatchObject({ code: "upstream_error", http_status: 200 });
    harness.server.handle(answer(200, { data: { teams: { nodes: [{ id: "t1" }], pageInfo: { hasNextPage: false, endCursor: null } } }, errors: [] }));
    expect(await executor.run({ integration: "graph", op: "teams.list", credential })).toMatchObject({ status: "ok", data: [{ id: "t1" }] });
  });

  it("a 400 carrying RATELIMITED is rate_limited (the map refines a status that only says upstream_error)", async () => {
    harness.server.handle(answer(400, { errors: [{ message: "Rate limit exceeded", extensions: { code: "RATELIMITED" } }] }));
    expect(errorOf(await executor.run({ integration: "graph", op: "teams.list", credential }))).toMatchObject({
      code: "rate_limited",
      http_status: 400,
      retry_after_s: 60,
      provider: { code: "RATELIMITED", message: "Rate limit exceeded" },
    });
  });
});

describe("providers' own words in 4xx/5xx answers", () => {
  it.each([
    ["GitHub", 404, { message: "Not Found", documentation_url: "https://docs.github.com/rest" }, "not_found", { message: "Not Found" }],
    [
      "Stripe",
      402,
      { error: { code: "card_declined", message: "Your card was declined.", type: "card_error" } },
      "upstream_error",
      { code: "card_declined", message: "Your card was declined." },
    ],
    [
      "Google",
      403,
      { error: { code: 403, message: "The caller does not have permission", status: "PERMISSION_DENIED" } },
      "forbidden",
      { code: "PERMISSION_DENIED", message: "The caller does not have permission" },
    ],
    [
      "Google 429",
      429,
      { error: { code: 429, message: "Quota exceeded", status: "RESOURCE_EXHAUSTED" } },
      "rate_limited",
      { code: "RESOURCE_EXHAUSTED", message: "Quota exceeded" },
    ],
  ])("%s: the status decides the code, the provider's code and message are attached", async (_name, status, body, code, provider) => {
    harness.server.handle(answer(status, body));
    const error = errorOf(await executor.run({ integration: "rest", op: "items.get", args: { id: "1" }, credential }));
    expect(error).toMatchObject({ code, http_status: status, provider });
    expect(error.message).not.toContain(provider.message);
  });

  it("a 10 KB message full of ANSI escapes, bidi and zero-width characters is cleaned and cut to 300 characters", async () => {
    const noisy = `\u001b[31mERROR\u001b[0m \u001b]8;;https://evil.example\u0007click\u001b]8;;\u0007 \u202Egnp.exe\u202C zero\u200Bwidth\r\nnext line ${"x".repeat(10_000)}`;
    harness.server.handle(answer(500, { message: noisy, error: { code: `CODE\u0000\u001b[2J${"Y".repeat(1000)}` } }));
    const error = errorOf(await executor.run({ integration: "rest", op: "items.get", args: { id: "1" }, credential }));
    const message = error.provider?.message ?? "";
    const code = error.provider?.code ?? "";
    expect(message.startsWith("ERROR click \uFFFDgnp.exe\uFFFD zero\uFFFDwidth next line xxx")).toBe(true);
    for (const text of [message, code]) {
      expect([...text].length).toBeLessThanOrEqual(300);
      expect(text).not.toMatch(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u);
      expect(text).not.toContain("[31m");
    }
    expect([...message].length).toBe(300);
    expect(code.startsWith("CODE YYY")).toBe(true);
  });

  it("an error answer that is not JSON, or over 64 KiB, gives the status error without provider words", async () => {
    harness.server.handle((_request, reply) => reply.code(502).header("content-type", "text/html").send("<html>Bad gateway</html>"));
    const html = errorOf(await executor.run({ integration: "rest", op: "items.get", args: { id: "1" }, credential }));
    expect(html).toMatchObject({ code: "upstream_error", http_status: 502 });
    expect(html.provider).toBeUndefined();
    harness.server.handle(answer(500, { message: "m".repeat(70 * 1024) }));
    const large = errorOf(await executor.run({ integration: "rest", op: "items.get", args: { id: "1" }, credential }));
    expect(large).toMatchObject({ code: "upstream_error", http_status: 500 });
    expect(large.provider).toBeUndefined();
  });
});
