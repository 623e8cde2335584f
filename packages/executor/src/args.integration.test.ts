import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Executor, RunRequest } from "./create-executor.js";
import { startHarness, type Harness } from "./test-support/harness.js";

let harness: Harness;
let executor: Executor;
beforeAll(async () => {
  harness = await startHarness();
  executor = harness.executor();
});
afterAll(() => harness.close());
beforeEach(() => {
  harness.server.requests.length = 0;
});

const credential = { token: "ghp_secret_token" };
const issue = { owner: "octocat", repo: "Hello-World", number: "1347" };
const run = (args: unknown, op = "issues.get") => executor.run({ integration: "example", op, args, credential } as RunRequest);

describe("args are checked before anything is sent", () => {
  it.each([
    ["a non-string value", { ...issue, number: 1347 }, /"number" must be a string/],
    ["an unknown arg", { ...issue, state: "open" }, /"state" is not an argument of example issues.get/],
    ["a missing required arg", { owner: "octocat", repo: "Hello-World" }, /"number" is required/],
    ["a value over max_length", { ...issue, owner: "o".repeat(40) }, /"owner" must be at most 39 characters/],
    ["a pattern miss", { ...issue, number: "1347; DROP" }, /"number" does not match/],
    ["a path value of ..", { ...issue, repo: ".." }, /"repo" must not be "\." or "\.\."/],
  ])("%s is invalid_args and the server receives nothing", async (_, args, message) => {
    const envelope = await run(args);
    expect(envelope).toMatchObject({ status: "error", integration: "example", op: "issues.get", error: { code: "invalid_args" } });
    if (envelope.status === "error") {
      expect(envelope.error.message).toMatch(message);
      expect(envelope.error.next_action).toMatch(/Correct the named arguments/);
    }
    expect(harness.server.requests).toHaveLength(0);
    expect(executor.validate({ integration: "example", op: "issues.get", args } as unknown as RunRequest)).toEqual(envelope);
  });

  it("an enum miss is invalid_args and nothing is sent", async () => {
    const envelope = await run({ q: "bugs", sort: "stars" }, "items.search");
    expect(envelope).toMatchObject({ error: { code: "invalid_args", message: expect.stringMatching(/"sort" must be one of/) } });
    expect(harness.server.requests).toHaveLength(0);
  });

  it("lists every problem at once", async () => {
    const envelope = await run({ owner: 1, extra: "x" });
    expect(envelope.status === "error" && envelope.error.message.split("; ")).toHaveLength(4);
  });

  it("validate answers null for a request run would send, sending nothing", async () => {
    expect(executor.validate({ integration: "example", op: "issues.get", args: issue })).toBeNull();
    expect(harness.server.requests).toHaveLength(0);
    expect(await run(issue)).toMatchObject({ status: "ok" });
    expect(harness.server.requests).toHaveLength(1);
  });
});

describe("unknown names", () => {
  it("an unknown integration is unknown_integration, from run and validate alike", async () => {
    const envelope = await executor.run({ integration: "gitthub", op: "issues.get", credential });
    expect(envelope).toEqual({
      status: "error",
      integration: "gitthub",
      op: "issues.get",
      error: expect.objectContaining({ code: "unknown_integration", next_action: expect.stringMatching(/registry catalog/) }),
    });
    expect(executor.validate({ integration: "gitthub", op: "issues.get" })).toEqual(envelope);
    expect(executor.validate({ integration: "__proto__", op: "x" })).toMatchObject({ error: { code: "unknown_integration" } });
  });

  it("an unknown op is unknown_op", async () => {
    const envelope = await executor.run({ integration: "example", op: "issues.delete_all", credential });
    expect(envelope).toMatchObject({ status: "error", error: { code: "unknown_op", message: expect.stringMatching(/Example has no operation/) } });
    expect(executor.validate({ integration: "example", op: "constructor" })).toMatchObject({ error: { code: "unknown_op" } });
    expect(harness.server.requests).toHaveLength(0);
  });
});

describe("the credential", () => {
  it.each([
    ["missing", undefined],
    ["empty", { token: "" }],
    ["not a string", { token: 42 }],
    ["holding CR/LF", { token: "abc\r\nX-Injected: 1" }],
    ["holding a space", { token: "abc def" }],
  ])("%s is unauthorized and nothing is sent, the token never quoted", async (_, given) => {
    const envelope = await executor.run({ integration: "example", op: "issues.get", args: issue, credential: given } as RunRequest);
    expect(envelope).toMatchObject({ status: "error", error: { code: "unauthorized", next_action: expect.stringMatching(/Reconnect Example/) } });
    expect(JSON.stringify(envelope)).not.toContain("abc");
    expect(harness.server.requests).toHaveLength(0);
  });
});
