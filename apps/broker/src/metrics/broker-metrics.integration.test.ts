import { spawnSync } from "node:child_process";
import type { FastifyInstance } from "fastify";
import { request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startBroker } from "../start/start-server.js";
import { BrokerMetrics } from "./broker-metrics.js";

// Values a caller sends that must never become a label.
const SECRET_REFRESH_TOKEN = "rt_secretLookingRefreshToken0123456789";
const SECRET_CLIENT_KEY = "ck_secretLookingClientKey0123456789abcd";

let app: FastifyInstance;
let url: string;
let metricsUrl: string;

beforeAll(async () => {
  // The development configuration (no BROKER_* variables): the catalog and the connect routes are served.
  ({ app, url, metricsUrl } = (await startBroker({ PORT: "0" }, { logger: false, metricsPort: 0 })) as {
    app: FastifyInstance;
    url: string;
    metricsUrl: string;
  });
});
afterAll(async () => {
  await app?.close();
});

async function get(target: string) {
  const response = await request(target);
  return { status: response.statusCode, body: await response.body.text() };
}

describe("the broker's metrics listener", () => {
  it("listens on 127.0.0.1 on its own port", () => {
    expect(metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(metricsUrl).not.toBe(url);
  });

  it("counts requests by route pattern and refreshes by integration and status, with no caller value in any label", async () => {
    expect((await get(`${url}/registry`)).status).toBe(200);
    await request(`${url}/connect/github/refresh`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ refresh_token: SECRET_REFRESH_TOKEN, client_key: SECRET_CLIENT_KEY }),
    }).then((response) => response.body.text());
    await request(`${url}/connect/${SECRET_CLIENT_KEY}/refresh`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" }).then(
      (response) => response.body.text(),
    );
    const { status, body } = await get(`${metricsUrl}/metrics`);
    expect(status).toBe(200);
    expect(body).toMatch(/^eleven_broker_http_requests_total\{route="\/registry",method="GET",status="200"\} 1$/m);
    expect(body).toMatch(/^eleven_broker_refreshes_total\{integration="github",status="\d{3}"\} 1$/m);
    expect(body).toMatch(/^eleven_broker_refreshes_total\{integration="unknown",status="\d{3}"\} 1$/m);
    expect(body).toMatch(/^eleven_broker_registry_sequence 0$/m);
    expect(body).toMatch(/^process_resident_memory_bytes \d/m);
    for (const secret of [SECRET_REFRESH_TOKEN, SECRET_CLIENT_KEY]) expect(body).not.toContain(secret);
    const check = spawnSync("promtool", ["check", "metrics"], { input: body, encoding: "utf8" });
    expect(check.error).toBeUndefined();
    expect(check.stdout + check.stderr).toBe("");
    expect(check.status).toBe(0);
  });

  it("answers /healthz and /readyz there", async () => {
    expect(await get(`${metricsUrl}/healthz`)).toEqual({ status: 200, body: JSON.stringify({ status: "ok" }) });
    expect(await get(`${metricsUrl}/readyz`)).toEqual({ status: 200, body: JSON.stringify({ status: "ready" }) });
  });

  it("never serves /metrics on the public listener", async () => {
    const answer = await get(`${url}/metrics`);
    expect(answer.status).toBe(404);
    expect(answer.body).not.toContain("eleven_broker_");
  });
});

describe("BrokerMetrics", () => {
  it("counts connects by integration and outcome", async () => {
    const metrics = new BrokerMetrics();
    metrics.recordConnect({ integration: "github", outcome: { ok: true, identified: true } });
    metrics.recordConnect({ integration: "github", outcome: { ok: false, code: "access_denied" } });
    const text = await metrics.exposition();
    expect(text).toMatch(/^eleven_broker_connects_total\{integration="github",outcome="ok"\} 1$/m);
    expect(text).toMatch(/^eleven_broker_connects_total\{integration="github",outcome="access_denied"\} 1$/m);
    expect(text).not.toMatch(/nodejs_active_(handles|requests|resources)_total/);
  });
});
