import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkLoopback } from "./loopback-guard.js";
import { authorized, testApp, type TestApp } from "../__fixtures__/test-app.js";

describe("checkLoopback", () => {
  it.each(["127.0.0.1:8787", "[::1]:8787", "localhost:8787"])("accepts Host %s on port 8787", (host) => {
    expect(checkLoopback(host, undefined, 8787)).toEqual({ ok: true });
  });

  it.each([
    ["a rebound DNS name", "attacker.example:8787"],
    ["the right name on another port", "127.0.0.1:8788"],
    ["no port", "127.0.0.1"],
    ["another loopback spelling", "127.0.0.2:8787"],
    ["a trailing dot", "localhost.:8787"],
    ["upper case", "LOCALHOST:8787"],
    ["user info", "a@127.0.0.1:8787"],
    ["a missing Host", undefined],
  ])("refuses %s", (_name, host) => {
    expect(checkLoopback(host, undefined, 8787)).toMatchObject({ ok: false, code: "forbidden_host" });
  });

  it.each(["http://127.0.0.1:8787", "http://localhost:8787", "http://[::1]:8787"])("accepts Origin %s", (origin) => {
    expect(checkLoopback("127.0.0.1:8787", origin, 8787)).toEqual({ ok: true });
  });

  it.each([
    ["Origin: null", "null"],
    ["a web page", "https://attacker.example"],
    ["a rebound page", "http://attacker.example:8787"],
    ["https on loopback", "https://127.0.0.1:8787"],
    ["another port", "http://127.0.0.1:3000"],
    ["a path", "http://127.0.0.1:8787/"],
    ["two origins", ["http://127.0.0.1:8787", "http://127.0.0.1:8787"]],
    ["an empty origin", ""],
  ])("refuses %s", (_name, origin) => {
    expect(checkLoopback("127.0.0.1:8787", origin, 8787)).toMatchObject({ ok: false, code: "forbidden_origin" });
  });

  it("takes a request without a socket port (inject) as arriving on port 80", () => {
    expect(checkLoopback("localhost:80", undefined, undefined)).toEqual({ ok: true });
    expect(checkLoopback("localhost", undefined, undefined)).toEqual({ ok: true });
    expect(checkLoopback("localhost:8787", undefined, undefined)).toMatchObject({ ok: false });
  });
});

describe("the loopback guard on the app (inject)", () => {
  let harness: TestApp;
  beforeAll(async () => {
    harness = await testApp();
  });
  afterAll(async () => {
    await harness.app.close();
  });

  it("lets inject's own Host (localhost:80) through", async () => {
    const response = await harness.app.inject({ method: "GET", url: "/v1/identity", headers: authorized });
    expect(response.statusCode).toBe(200);
  });

  it("answers 403 to a rebound Host before checking the token", async () => {
    const response = await harness.app.inject({ method: "GET", url: "/v1/identity", headers: { host: "attacker.example" } });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ error: { code: "forbidden_host" } });
  });

  it("answers 403 to a foreign Origin even with the caller token", async () => {
    const response = await harness.app.inject({ method: "GET", url: "/v1/identity", headers: { ...authorized, origin: "https://attacker.example" } });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ error: { code: "forbidden_origin" } });
  });

  it("answers 403 before routing, body parsing or size checks", async () => {
    const headers = { host: "attacker.example", "content-type": "text/plain" };
    const unknown = await harness.app.inject({ method: "GET", url: "/nowhere", headers });
    const wrongType = await harness.app.inject({ method: "POST", url: "/v1/run", headers, payload: "x" });
    const tooLarge = await harness.app.inject({ method: "POST", url: "/v1/run", headers, payload: "x".repeat(300 * 1024) });
    expect([unknown.statusCode, wrongType.statusCode, tooLarge.statusCode]).toEqual([403, 403, 403]);
  });

  it("writes no audit line for a refused caller", async () => {
    await harness.app.inject({ method: "POST", url: "/v1/run", headers: { host: "attacker.example" }, payload: { grant: "x", op: "repos.list" } });
    expect(await harness.auditRecords()).toEqual([]);
  });
});
