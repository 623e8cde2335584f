// The documented handshakes of Microsoft Graph (validationToken) and Asana (X-Hook-Secret),
// against a real fastify on 127.0.0.1, over manifests declaring those dialects.
import type { AddressInfo } from "node:net";
import { loadRegistry } from "@eleven-integrations/loader";
import type { FastifyInstance } from "fastify";
import { request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testApp } from "../__fixtures__/test-app.js";
import { patManifest } from "../__fixtures__/test-registry.js";
import { createBrokerObservability } from "../metrics/broker-metrics.js";
import type { WebhookReport } from "./webhook-outcome.js";

const observability = createBrokerObservability();

const withEvent = (id: string, dialect: string) => ({
  ...patManifest,
  id,
  name: id,
  events: [
    {
      id: "item.changed",
      label: "An item changed",
      source: "webhook",
      webhook: { verify: dialect, type: [{ body: "kind", in: ["changed"] }], delivery: { body: "id" } },
      pick: { fields: ["id"] },
      line: "Item {id} changed",
    },
  ],
});

let app: FastifyInstance;
let url: string;
const reports: WebhookReport[] = [];

beforeAll(async () => {
  ({ app } = testApp({
    registry: loadRegistry([
      { file: "graphish.json", json: withEvent("graphish", "microsoft-graph") },
      { file: "asanaish.json", json: withEvent("asanaish", "asana") },
    ]),
    oauthApps: {},
    observability,
    onWebhook: (report) => reports.push(report),
  }));
  await app.listen({ host: "127.0.0.1", port: 0 });
  url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await app?.close();
});

describe("documented handshakes", () => {
  it("Microsoft Graph: echoes validationToken as text/plain, only with no body and only for a Graph integration", async () => {
    const token = "Validation: Token/with spaces+and=signs";
    const echoed = await request(`${url}/hooks/graphish?validationToken=${encodeURIComponent(token)}`, {
      method: "POST",
      headers: { "content-type": "text/plain" },
    });
    expect(echoed.statusCode).toBe(200);
    expect(echoed.headers["content-type"]).toBe("text/plain; charset=utf-8");
    expect(echoed.headers["x-content-type-options"]).toBe("nosniff");
    expect(await echoed.body.text()).toBe(token);
    // With a body it is a notification: verified (here: no secret configured, refused).
    const withBody = await request(`${url}/hooks/graphish?validationToken=abc`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: '{"value":[]}',
    });
    expect(withBody.statusCode).toBe(401);
    await withBody.body.dump();
    // Not a Graph integration: no echo.
    const elsewhere = await request(`${url}/hooks/asanaish?validationToken=abc`, { method: "POST" });
    expect(elsewhere.statusCode).toBe(401);
    expect(await elsewhere.body.text()).not.toBe("abc");
  });

  it("Asana: echoes X-Hook-Secret on the handshake, never when the request carries a signature", async () => {
    const handshake = await request(`${url}/hooks/asanaish`, { method: "POST", headers: { "x-hook-secret": "asana-handshake-secret" } });
    expect(handshake.statusCode).toBe(200);
    expect(handshake.headers["x-hook-secret"]).toBe("asana-handshake-secret");
    await handshake.body.dump();
    const signed = await request(`${url}/hooks/asanaish`, {
      method: "POST",
      headers: { "x-hook-secret": "asana-handshake-secret", "x-hook-signature": "00", "content-type": "application/json" },
      body: '{"events":[]}',
    });
    expect(signed.statusCode).toBe(401);
    expect(signed.headers["x-hook-secret"]).toBeUndefined();
    await signed.body.dump();
    expect(reports.filter((report) => report.outcome === "handshake")).toHaveLength(2);
  });

  it("counts each post in eleven_broker_webhooks_total by a registry id (or unknown) and a closed outcome, never a path the caller chose", async () => {
    const stranger = await request(`${url}/hooks/${"x".repeat(30)}`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
    expect(stranger.statusCode).toBe(404);
    await stranger.body.dump();
    const exposition = await observability.metrics.exposition();
    expect(exposition).toContain('eleven_broker_webhooks_total{integration="asanaish",outcome="handshake"} 1');
    expect(exposition).toContain('eleven_broker_webhooks_total{integration="unknown",outcome="unknown_integration"} 1');
    expect(exposition).toContain('eleven_broker_webhooks_total{integration="asanaish",outcome="no_secret"} 2');
    expect(exposition).not.toContain("x".repeat(30));
  });
});

describe("a broker without Redis", () => {
  it("keeps no events: the follow routes answer 503, and asking for sessions is bounded per address", async () => {
    const bot = "B".repeat(42) + "A";
    const follow = await request(`${url}/events/${bot}`, { headers: { authorization: `Bearer ${"t".repeat(43)}` } });
    expect(follow.statusCode).toBe(503);
    await follow.body.dump();
    const statuses: number[] = [];
    for (let asked = 0; asked < 31; asked += 1) {
      const response = await request(`${url}/events/${bot}/session`, { method: "POST" });
      statuses.push(response.statusCode);
      await response.body.dump();
    }
    expect(statuses.slice(0, 30).every((status) => status === 503)).toBe(true);
    expect(statuses[30]).toBe(429);
  });
});
