import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Envelope } from "./envelope.js";
import { startHarness, type Harness } from "./test-support/harness.js";

let harness: Harness;
beforeAll(async () => {
  harness = await startHarness();
});
afterAll(() => harness.close());

const credential = { token: "t" };
/** Serves `body` as JSON and runs `op` against it. */
async function pickFrom(op: string, body: unknown, args: Record<string, string> = {}, limits?: { maxResultBytes: number }): Promise<Envelope> {
  harness.server.handle((_request, reply) => reply.header("content-type", "application/json; charset=utf-8").send(JSON.stringify(body)));
  const executor = limits === undefined ? harness.executor() : harness.executor(limits);
  return executor.run({ integration: "example", op, args, credential });
}
const dataOf = (envelope: Envelope): unknown => {
  if (envelope.status !== "ok") throw new Error(`expected ok, got ${JSON.stringify(envelope)}`);
  return JSON.parse(JSON.stringify(envelope.data));
};

describe("pick", () => {
  it("reduces each object of an array to the fields, nested paths flattened, paths through arrays mapped, missing fields omitted", async () => {
    const body = [
      { id: 1, user: { login: "octocat", id: 5 }, labels: [{ name: "bug", color: "f00" }, { name: "ui" }, { color: "0f0" }], secret: "x" },
      { id: 2, user: null },
      "not an object",
      { id: 3, labels: [] },
      { user: { login: "hubot" }, missing: {} },
    ];
    expect(dataOf(await pickFrom("items.list", body))).toEqual([
      { id: 1, "user.login": "octocat", "labels.name": ["bug", "ui"] },
      { id: 2 },
      { id: 3, "labels.name": [] },
      { "user.login": "hubot" },
    ]);
  });

  it("descends into root first, and reduces the object there", async () => {
    const body = { data: { items: [{ id: "a", owner: { login: "o" }, other: 1 }, { id: "b" }], total: 2 }, meta: { secret: 1 } };
    expect(dataOf(await pickFrom("items.wrapped", body))).toEqual([{ id: "a", "owner.login": "o" }, { id: "b" }]);
  });

  it("reduces a single object (not an array) to its fields", async () => {
    expect(dataOf(await pickFrom("items.get", { id: 9, name: "n", body: "long" }, { id: "9" }))).toEqual({ id: 9, name: "n" });
  });

  it("returns the whole value at root when no fields are listed", async () => {
    expect(dataOf(await pickFrom("items.root", { data: { viewer: { id: "u", teams: [1, 2] } }, errors: [] }))).toEqual({ viewer: { id: "u", teams: [1, 2] } });
  });

  it("maps a root that runs through an array", async () => {
    const body = { data: [{ items: { id: "x" } }, { items: { id: "y" } }] };
    expect(dataOf(await pickFrom("items.wrapped", body))).toEqual([{ id: "x" }, { id: "y" }]);
  });

  it("gives null for a missing root, or a root that is not an object", async () => {
    expect(dataOf(await pickFrom("items.wrapped", { errors: ["nope"] }))).toBeNull();
    expect(dataOf(await pickFrom("items.get", "just text", { id: "1" }))).toBeNull();
  });
});

describe("maxResultBytes", () => {
  const many = Array.from({ length: 2_000 }, (_, index) => ({ id: index, user: { login: `user-${index}-${"x".repeat(20)}` } }));

  it("refuses a result over the limit as result_too_large, never a cut JSON string", async () => {
    const envelope = await pickFrom("items.list", many);
    expect(envelope).toEqual({
      status: "error",
      integration: "example",
      op: "items.list",
      error: expect.objectContaining({ code: "result_too_large", http_status: 200, message: expect.stringMatching(/over the 49152-byte limit/) }),
    });
    expect(JSON.stringify(envelope)).not.toContain("user-1");
  });

  it("counts the whole serialised envelope in UTF-8 bytes, to the byte", async () => {
    const body = [{ id: 1, user: { login: "é".repeat(100) } }];
    const fits = await pickFrom("items.list", body);
    const size = Buffer.byteLength(JSON.stringify(fits));
    expect(await pickFrom("items.list", body, {}, { maxResultBytes: size })).toEqual(fits);
    expect(await pickFrom("items.list", body, {}, { maxResultBytes: size - 1 })).toMatchObject({ error: { code: "result_too_large" } });
  });
});
