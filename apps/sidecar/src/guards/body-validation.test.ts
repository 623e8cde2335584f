import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseBody, runBodySchema, wellFormedOp } from "@eleven-integrations/sidecar-protocol";
import { grantFor } from "../__fixtures__/grant-kit.js";
import { authorized, testApp, type TestApp } from "../__fixtures__/test-app.js";

describe("parseBody(runBodySchema)", () => {
  it("accepts the documented shape", () => {
    const body = { grant: "eg1.x", op: "repos.list", args: { sort: "created" }, confirmation: "ec1.y", page: "ep1.a.b" };
    expect(parseBody(runBodySchema, body)).toEqual({ ok: true, value: body });
  });

  it("names every unknown key, nested or not", () => {
    const result = parseBody(runBodySchema, { grant: "eg1.x", op: "repos.list", integration: "github", extra: 1 });
    expect(result).toEqual({
      ok: false,
      issues: [
        { path: "integration", message: "unknown key" },
        { path: "extra", message: "unknown key" },
      ],
    });
  });

  it.each([
    ["a number for a string arg", { grant: "eg1.x", op: "repos.list", args: { sort: 1 } }, "args.sort"],
    ["a boolean op", { grant: "eg1.x", op: true }, "op"],
    ["a numeric grant", { grant: 12, op: "repos.list" }, "grant"],
    ["args as an array", { grant: "eg1.x", op: "repos.list", args: ["created"] }, "args"],
    ["a malformed op id", { grant: "eg1.x", op: "repos/list" }, "op"],
    ["a missing op", { grant: "eg1.x" }, "op"],
    ["a null confirmation", { grant: "eg1.x", op: "repos.list", confirmation: null }, "confirmation"],
    ["a numeric page", { grant: "eg1.x", op: "repos.list", page: 2 }, "page"],
    ["an empty page", { grant: "eg1.x", op: "repos.list", page: "" }, "page"],
  ])("refuses %s without coercing it, naming %s", (_name, body, path) => {
    const result = parseBody(runBodySchema, body);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.issues.map((issue) => issue.path)).toContain(path);
  });

  it("refuses a body that is not an object, at the root", () => {
    const result = parseBody(runBodySchema, ["eg1.x"]);
    expect(result).toMatchObject({ ok: false, issues: [{ path: "" }] });
  });

  it("keeps only a well-formed op for the audit line", () => {
    expect(wellFormedOp({ op: "repos.list", args: 1 })).toBe("repos.list");
    expect(wellFormedOp({ op: "secret value" })).toBeNull();
    expect(wellFormedOp("repos.list")).toBeNull();
  });
});

describe("request bodies on the app", () => {
  let harness: TestApp;
  beforeAll(async () => {
    harness = await testApp();
  });
  afterAll(async () => {
    await harness.app.close();
  });

  const post = (url: string, payload: string, contentType?: string) =>
    harness.app.inject({ method: "POST", url, headers: contentType === undefined ? authorized : { ...authorized, "content-type": contentType }, payload });

  it.each(["text/plain", "application/x-www-form-urlencoded", "application/xml", "multipart/form-data; boundary=x"])(
    "answers 415 to a %s body",
    async (contentType) => {
      const response = await post("/v1/run", '{"grant":"eg1.x","op":"repos.list"}', contentType);
      expect(response.statusCode).toBe(415);
      expect(response.json()).toMatchObject({ error: { code: "unsupported_media_type" } });
    },
  );

  it("answers 413 past 256 KiB, and takes a body just under it", async () => {
    const json = (size: number) => JSON.stringify({ grant: "x".repeat(size), op: "repos.list" });
    const overhead = json(0).length;
    const over = await post("/v1/run", json(256 * 1024 - overhead + 1), "application/json");
    expect(over.statusCode).toBe(413);
    expect(over.json()).toMatchObject({ error: { code: "body_too_large" } });
    const under = await post("/v1/run", json(256 * 1024 - overhead), "application/json");
    expect(under.statusCode).toBe(200);
  });

  it("answers 400 invalid_json to a body that does not parse, without quoting it", async () => {
    const response = await post("/v1/run", '{"grant": "secret-looking-value", ', "application/json");
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: { code: "invalid_json" } });
    expect(response.body).not.toContain("secret-looking-value");
  });

  it("answers 400 invalid_json to a prototype-poisoning body", async () => {
    const response = await post("/v1/run", '{"grant":"eg1.x","op":"repos.list","args":{"__proto__":{"x":"y"}}}', "application/json");
    expect(response.statusCode).toBe(400);
  });

  it("answers 400 invalid_body naming the unknown key", async () => {
    const response = await post("/v1/run", JSON.stringify({ grant: grantFor(), op: "repos.list", integration: "github" }), "application/json");
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      error: { code: "invalid_body", message: expect.any(String) as string, issues: [{ path: "integration", message: "unknown key" }] },
    });
  });

  it("answers 400 invalid_body naming a mistyped field instead of coercing it", async () => {
    const response = await post("/v1/run", JSON.stringify({ grant: grantFor(), op: "repos.list", args: { sort: 1 } }), "application/json");
    expect(response.statusCode).toBe(400);
    const { error } = response.json() as { error: { code: string; issues: { path: string }[] } };
    expect(error.code).toBe("invalid_body");
    expect(error.issues.map((issue) => issue.path)).toEqual(["args.sort"]);
  });

  it("validates /v1/ops bodies the same way", async () => {
    const response = await post("/v1/ops", JSON.stringify({ grant: grantFor(), op: "repos.list" }), "application/json");
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: { code: "invalid_body", issues: [{ path: "op", message: "unknown key" }] } });
  });

  it("answers 400 invalid_body to a POST without a body", async () => {
    const response = await harness.app.inject({ method: "POST", url: "/v1/ops", headers: authorized });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: { code: "invalid_body" } });
  });

  it("answers 404 in the same error shape to an unknown route", async () => {
    const response = await harness.app.inject({ method: "GET", url: "/v1/secrets", headers: authorized });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ error: { code: "not_found" } });
  });
});
