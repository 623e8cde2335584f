import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startThirdReleaseHarness, type ThirdReleaseHarness } from "./test-support/third-release-harness.js";

let harness: ThirdReleaseHarness;
beforeAll(async () => {
  harness = await startThirdReleaseHarness((_request, reply) => reply.send({ ok: true }));
});
afterAll(() => harness.close());
beforeEach(() => harness.reset());

const credential = { token: "tok_features" };
const run = (op: string, args: Record<string, string>) => harness.executor.run({ integration: "features", op, args, credential });
const only = () => {
  expect(harness.server.requests).toHaveLength(1);
  return harness.server.requests[0] as { url: string; body: string; headers: Record<string, unknown> };
};

describe("a literal suffix after a path placeholder", () => {
  it("sends Google's custom verb and Twilio's extension after the escaped value", async () => {
    expect((await run("sheets.batch_update", { spreadsheet_id: "1BxiMVs0XRA5nFMdKvBdBZjgmUUqptlbs74OgvE2upms" })).status).toBe("ok");
    expect(only().url).toBe("/v1/spreadsheets/1BxiMVs0XRA5nFMdKvBdBZjgmUUqptlbs74OgvE2upms:batchUpdate");
    harness.reset();
    expect((await run("messages.get", { account_sid: "ACXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX", sid: "SM1234" })).status).toBe("ok");
    expect(only().url).toBe("/v1/Accounts/ACXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX/Messages/SM1234.json");
  });

  it("escapes the value as one segment, so it cannot add its own verb or extension", async () => {
    await run("sheets.batch_update", { spreadsheet_id: "abc:clear?x=1#y" });
    expect(only().url).toBe("/v1/spreadsheets/abc%3Aclear%3Fx%3D1%23y:batchUpdate");
  });

  it.each([
    ["..", ".."],
    [".", "."],
    ["a value ending in .", "SM1."],
    ["a value ending in an encoded dot", "SM1%2e"],
    ["a value ending in a double-encoded dot", "SM1%252E"],
    ["a value ending in a full-width dot", "SM1\uff0e"],
    ["a slash", "SM1/../../Calls"],
    ["an encoded slash", "SM1%2f..%2fCalls"],
    ["a backslash", "SM1\\x"],
    ["empty", ""],
  ])("refuses %s before a suffix, sending nothing", async (_name, sid) => {
    expect(await run("messages.get", { account_sid: "AC1", sid })).toMatchObject({
      status: "error",
      error: { code: "invalid_args", message: expect.stringContaining('arg "sid"') },
    });
    expect(harness.sent()).toBe(0);
  });
});

describe("typed args: a string checked as its type, a whole body leaf rendered as that JSON type", () => {
  it("renders integer, boolean and number leaves as JSON values, and text around a placeholder as text", async () => {
    expect((await run("meetings.create", { topic: "Standup", duration: "30", muted: "true", rate: "1.5" })).status).toBe("ok");
    const { body, headers } = only();
    expect(headers["content-type"]).toBe("application/json");
    expect(JSON.parse(body)).toEqual({ topic: "Standup", duration: 30, settings: { mute_upon_entry: true }, rate: 1.5, label: "30 minutes" });
  });

  it("drops an optional typed leaf that was not given, and keeps a string-typed leaf a string", async () => {
    await run("meetings.create", { topic: "Standup", duration: "-5", note: "42" });
    expect(JSON.parse(only().body)).toEqual({ topic: "Standup", duration: -5, settings: {}, label: "-5 minutes", note: "42" });
  });

  it("sends a typed leaf in a form body as its text", async () => {
    await run("invoices.create", { amount: "1200", paid: "false" });
    expect(only()).toMatchObject({ body: "amount=1200&paid=false", headers: { "content-type": "application/x-www-form-urlencoded" } });
  });

  it.each([
    ["duration", "30.5", /integer/],
    ["duration", "thirty", /integer/],
    ["duration", "", /integer/],
    ["duration", "9007199254740993", /integer/],
    ["duration", "1e3", /integer/],
    ["duration", " 30", /integer/],
    ["muted", "yes", /"true" or "false"/],
    ["muted", "True", /"true" or "false"/],
    ["rate", "NaN", /JSON number/],
    ["rate", "1e999", /JSON number/],
    ["rate", "0x10", /JSON number/],
    ["rate", ".5", /JSON number/],
    ["rate", "Infinity", /JSON number/],
  ])("refuses %s = %j as invalid_args, sending nothing", async (name, value, message) => {
    const args: Record<string, string> = { topic: "Standup", duration: "30", [name]: value };
    expect(await run("meetings.create", args)).toMatchObject({ status: "error", error: { code: "invalid_args", message: expect.stringMatching(message) } });
    expect(harness.sent()).toBe(0);
  });
});
