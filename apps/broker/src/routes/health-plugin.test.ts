import { loadRegistry } from "@eleven-integrations/loader";
import { request } from "undici";
import { afterAll, describe, expect, it } from "vitest";
import { buildApp } from "../app.js";
import { PUBLIC_URL, patManifest, randomKey } from "../__fixtures__/test-registry.js";
import { startBroker } from "../start/start-server.js";

const closers: Array<() => Promise<unknown>> = [];
afterAll(async () => {
  for (const close of closers) await close();
});

describe("GET /healthz and /readyz on the public listener", () => {
  it("answers 200 alive and 200 ready once the broker listens", async () => {
    const { app, url } = await startBroker({ PORT: "0" }, { logger: false });
    closers.push(() => app.close());
    const health = await request(`${url}/healthz`);
    expect(health.statusCode).toBe(200);
    expect(await health.body.json()).toMatchObject({ status: "ok" });
    const readiness = await request(`${url}/readyz`);
    expect(readiness.statusCode).toBe(200);
    expect(await readiness.body.json()).toEqual({ status: "ready" });
  });

  it("answers 503 with the reason before the broker listens", async () => {
    const app = buildApp({
      registry: loadRegistry([{ file: "patonly.json", json: patManifest }]),
      publicUrl: PUBLIC_URL,
      stateKey: randomKey(),
      allowedReturnTo: [],
      oauthApps: {},
    });
    closers.push(() => app.close());
    const answer = await app.inject({ method: "GET", url: "/readyz" });
    expect(answer.statusCode).toBe(503);
    expect(answer.json()).toEqual({ status: "not_ready", reasons: ["registry_not_loaded"] });
    expect((await app.inject({ method: "GET", url: "/healthz" })).statusCode).toBe(200);
  });
});
