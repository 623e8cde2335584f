import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCallerAuth } from "./caller-auth.js";
import { bot, CALLER_TOKEN, registry } from "../__fixtures__/grant-kit.js";
import { authorized, testApp, type TestApp } from "../__fixtures__/test-app.js";

describe("createCallerAuth", () => {
  const authorizedBy = createCallerAuth("s3cret-caller-token-0123456789");

  it("accepts the token as a Bearer credential, the scheme in any case", () => {
    expect(authorizedBy("Bearer s3cret-caller-token-0123456789")).toBe(true);
    expect(authorizedBy("bearer s3cret-caller-token-0123456789")).toBe(true);
  });

  it.each([
    ["no header", undefined],
    ["an empty header", ""],
    ["another token", "Bearer s3cret-caller-token-0123456788"],
    ["a prefix of the token", "Bearer s3cret-caller-token"],
    ["the token with more after it", "Bearer s3cret-caller-token-0123456789x"],
    ["the bare token", "s3cret-caller-token-0123456789"],
    ["another scheme", "Basic s3cret-caller-token-0123456789"],
    ["an empty bearer", "Bearer "],
  ])("refuses %s", (_name, header) => {
    expect(authorizedBy(header)).toBe(false);
  });

  it("refuses an empty configured token", () => {
    expect(() => createCallerAuth("")).toThrow(TypeError);
  });
});

describe("the caller token on the app", () => {
  let harness: TestApp;
  beforeAll(async () => {
    harness = await testApp();
  });
  afterAll(async () => {
    await harness.app.close();
  });

  it("answers GET /v1/identity with the bot's public key and the registry it runs to the caller", async () => {
    const response = await harness.app.inject({ method: "GET", url: "/v1/identity", headers: authorized });
    expect(response.statusCode).toBe(200);
    expect(response.headers["cache-control"]).toBe("no-store");
    expect(response.json()).toEqual({
      public_key: bot.publicKey,
      receipt_key: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      registry: { hash: registry.hash, sequence: 0, source: "embedded", synced_at: null },
    });
  });

  it.each([
    ["GET", "/v1/identity"],
    ["POST", "/v1/ops"],
    ["POST", "/v1/run"],
    ["GET", "/nowhere"],
  ] as const)("answers 401 to %s %s without the token", async (method, url) => {
    const response = await harness.app.inject({ method, url, headers: { authorization: "Bearer wrong-token-of-some-length" } });
    expect(response.statusCode).toBe(401);
    expect(response.headers["www-authenticate"]).toMatch(/^Bearer/);
    expect(response.json()).toMatchObject({ error: { code: "unauthorized" } });
  });

  it("checks the token before the body: an unauthorised wrong type or oversize body is 401", async () => {
    const wrongType = await harness.app.inject({ method: "POST", url: "/v1/run", headers: { "content-type": "text/plain" }, payload: "x" });
    const tooLarge = await harness.app.inject({ method: "POST", url: "/v1/run", payload: { grant: "x".repeat(300 * 1024), op: "a.b" } });
    expect([wrongType.statusCode, tooLarge.statusCode]).toEqual([401, 401]);
  });

  it("never echoes the token", async () => {
    const response = await harness.app.inject({ method: "GET", url: "/v1/identity", headers: authorized });
    expect(response.body).not.toContain(CALLER_TOKEN);
  });
});
