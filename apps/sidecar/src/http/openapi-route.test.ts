import { sidecarOpenApi } from "@eleven-integrations/sidecar-protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { answerViolations } from "../__fixtures__/openapi-answers.js";
import { authorized, describedAnswerViolations, testApp, type TestApp } from "../__fixtures__/test-app.js";

let subject: TestApp;
beforeAll(async () => {
  subject = await testApp();
  // A route the description does not have: its answers must show up as violations.
  subject.app.get("/v1/undescribed", async () => ({ hello: "world" }));
  await subject.app.ready();
});
afterAll(async () => {
  await subject.app.close();
});

describe("GET /v1/openapi.json", () => {
  it("serves the protocol package's description, generated from the schemas the routes validate with", async () => {
    const response = await subject.app.inject({ method: "GET", url: "/v1/openapi.json", headers: authorized });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(response.headers["cache-control"]).toBe("no-store");
    expect(response.json()).toEqual(sidecarOpenApi());
  });

  it("is behind the caller token like every route", async () => {
    const response = await subject.app.inject({ method: "GET", url: "/v1/openapi.json" });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ error: { code: "unauthorized" } });
  });

  it("names every route in the 404 of an unknown one", async () => {
    const response = await subject.app.inject({ method: "GET", url: "/v1/nothing", headers: authorized });
    expect(response.statusCode).toBe(404);
    expect(response.json().error.message).toBe(
      "no such route: the sidecar serves GET /v1/identity, POST /v1/ops, POST /v1/run, POST /v1/search, POST /v1/revoke, POST /v1/policy, POST /v1/whoami, POST /v1/subscriptions, POST /v1/events, GET /v1/openapi.json, GET /healthz, GET /readyz",
    );
  });
});

describe("the answers check (every test app's answers are checked against the description)", () => {
  it("records an answer of a route the description lacks", async () => {
    await subject.app.inject({ method: "GET", url: "/v1/undescribed", headers: authorized });
    expect(describedAnswerViolations.splice(0)).toEqual(["GET /v1/undescribed is not described"]);
  });

  it("refuses an answer the route's schema does not allow, and a status it does not list", () => {
    const registry = { hash: "h", sequence: 0, source: "embedded", synced_at: null };
    expect(answerViolations("GET", "/v1/identity", 200, { public_key: "k", registry })).toEqual([]);
    expect(answerViolations("GET", "/v1/identity", 200, { public_key: "k", registry, secret: "x" }).join("\n")).toContain(
      "must NOT have additional properties",
    );
    expect(answerViolations("POST", "/v1/run", 200, { status: "ok", integration: "github", op: "repos.list" }).length).toBeGreaterThan(0);
    expect(
      answerViolations("POST", "/v1/run", 200, {
        status: "error",
        integration: null,
        op: "x.y",
        error: { code: "no_such_code", message: "m", next_action: "n" },
      }).length,
    ).toBeGreaterThan(0);
    expect(answerViolations("POST", "/v1/run", 418, { error: { code: "internal_error", message: "m" } })).toEqual([
      "POST /v1/run answered 418, a status its description does not list",
    ]);
    expect(answerViolations("POST", "/v1/run", 400, { error: { code: "invalid_body", message: "m", issues: [{ path: "op", message: "bad" }] } })).toEqual([]);
  });
});
