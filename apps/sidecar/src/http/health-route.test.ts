// The probes on the main listener: behind the caller token like every route, answering
// what the metrics listener answers, as the protocol package describes them.
import Fastify from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authorized, checkAnswersAgainstDescription, describedAnswerViolations, testApp, type TestApp } from "../__fixtures__/test-app.js";
import { Readiness } from "../metrics/readiness.js";
import { type SidecarContext, sidecarContextPlugin } from "./context.js";
import { healthPlugin } from "./health-plugin.js";

let subject: TestApp;
beforeAll(async () => {
  subject = await testApp();
  await subject.app.ready();
});
afterAll(async () => {
  await subject.app.close();
});

describe("GET /healthz and GET /readyz on the main listener", () => {
  it("answer alive and ready once the registry is loaded", async () => {
    const health = await subject.app.inject({ method: "GET", url: "/healthz", headers: authorized });
    expect(health.statusCode).toBe(200);
    expect(health.json()).toEqual({ status: "ok" });
    const ready = await subject.app.inject({ method: "GET", url: "/readyz", headers: authorized });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: "ready" });
  });

  it("are behind the caller token like every route", async () => {
    for (const url of ["/healthz", "/readyz"]) {
      const response = await subject.app.inject({ method: "GET", url });
      expect(response.statusCode).toBe(401);
      expect(response.json()).toMatchObject({ error: { code: "unauthorized" } });
    }
  });

  it("answer 503 with every reason while not ready, as described", async () => {
    const app = Fastify();
    const readiness = new Readiness({ registryLoaded: () => false, redisReady: () => false, sync: () => undefined });
    void app.register(sidecarContextPlugin, { context: { readiness } as unknown as SidecarContext });
    void app.register(healthPlugin);
    checkAnswersAgainstDescription(app);
    const response = await app.inject({ method: "GET", url: "/readyz" });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({ status: "not_ready", reasons: ["registry_not_loaded", "redis_unreachable"] });
    expect(describedAnswerViolations).toEqual([]);
    await app.close();
  });
});
