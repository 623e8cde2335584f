import fc from "fast-check";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Executor } from "./create-executor.js";
import { startHarness, type Harness } from "./test-support/harness.js";

let harness: Harness;
let executor: Executor;
beforeAll(async () => {
  harness = await startHarness((request, reply) => reply.send({ id: request.url, name: "item" }));
  executor = harness.executor();
});
afterAll(() => harness.close());
beforeEach(() => {
  harness.server.requests.length = 0;
});

const credential = { token: "t" };
const getItem = (id: string) => executor.run({ integration: "example", op: "items.get", args: { id }, credential });

describe("a path value that could leave its segment is refused, and nothing is sent", () => {
  it.each([
    "..",
    ".",
    "%2e%2e",
    ".%2E",
    "．．",
    "",
    "a/b",
    "https://evil.example",
    "a\\b",
    "a\r\nHost: evil.example",
    "a\nb",
    "a\u0000b",
    "a\u202eb",
    "a\u200bb",
    "a\ud800b",
    "a\udc00",
  ])("%j", async (value) => {
    const envelope = await getItem(value);
    expect(envelope).toMatchObject({ status: "error", error: { code: "invalid_args", message: expect.stringMatching(/^arg "id" must not/) } });
    expect(harness.server.requests).toHaveLength(0);
    expect(harness.evil.requests).toHaveLength(0);
  });
});

describe("any other path value is sent encoded inside its one segment", () => {
  it.each([
    ["a?b#c", "a%3Fb%23c"],
    ["@evil.example", "%40evil.example"],
    ["https:evil.example", "https%3Aevil.example"],
    ["100%", "100%25"],
    ["a!'()*b", "a%21%27%28%29%2Ab"],
    ["...", "..."],
    ["é 😀", "%C3%A9%20%F0%9F%98%80"],
  ])("%j as %s", async (value, encoded) => {
    const envelope = await getItem(value);
    expect(envelope.status).toBe("ok");
    const [received] = harness.server.requests;
    expect(received?.method).toBe("GET");
    const target = received?.url ?? "";
    expect(target).not.toMatch(/[?#]/);
    const segments = target.split("/");
    expect(segments).toHaveLength(4);
    expect(segments.slice(0, 3)).toEqual(["", "v2", "items"]);
    expect(segments[3]).toBe(encoded);
    expect(decodeURIComponent(segments[3] as string)).toBe(value);
    expect(received?.headers.host).toBe("api.example.com");
    expect(harness.evil.requests).toHaveLength(0);
  });
});

it("keeps a query value one value and leaves the manifest's own pairs unchanged", async () => {
  const envelope = await executor.run({ integration: "example", op: "items.search", args: { q: "x&per_page=1000" }, credential });
  expect(envelope.status).toBe("ok");
  const target = harness.server.requests[0]?.url ?? "";
  expect(target).toBe("/v2/search?q=x%26per_page%3D1000&per_page=20");
  const params = new URL(target, "https://api.example.com").searchParams;
  expect(params.getAll("per_page")).toEqual(["20"]);
  expect(params.getAll("q")).toEqual(["x&per_page=1000"]);
});

it("property: over a real socket, every accepted value keeps the host and its one segment, and round-trips", async () => {
  let accepted = 0;
  await fc.assert(
    fc.asyncProperty(
      fc.oneof(
        fc.string({ unit: "binary", maxLength: 24 }),
        fc.string({ unit: fc.constantFrom(".", "%", "/", "?", "#", "@", ":", "\r", "\ud800", "a", "．"), maxLength: 8 }),
      ),
      async (value) => {
        harness.server.requests.length = 0;
        const envelope = await getItem(value);
        if (envelope.status === "error") {
          expect(envelope.error.code).toBe("invalid_args");
          expect(harness.server.requests).toHaveLength(0);
          return;
        }
        accepted += 1;
        const received = harness.server.requests[0];
        expect(received?.headers.host).toBe("api.example.com");
        const segments = (received?.url ?? "").split("/");
        expect(segments).toHaveLength(4);
        expect(decodeURIComponent(segments[3] as string)).toBe(value);
      },
    ),
    { numRuns: 150 },
  );
  expect(accepted).toBeGreaterThan(20);
  expect(harness.evil.requests).toHaveLength(0);
});
