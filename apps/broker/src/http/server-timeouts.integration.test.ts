import type { AddressInfo } from "node:net";
import { ready } from "@eleven-integrations/grants";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { slowRequest } from "@eleven-integrations/test-support";
import { testApp } from "../__fixtures__/test-app.js";

let app: FastifyInstance;
let port: number;

beforeAll(async () => {
  await ready();
  app = testApp({ logger: false }).app;
  await app.listen({ host: "127.0.0.1", port: 0 });
  port = (app.server.address() as AddressInfo).port;
});
afterAll(async () => {
  await app?.close();
});

describe("the broker's own timeouts (defaults)", () => {
  it("a request body dripped one byte at a time ends in 408 within 30 s; so do dripped headers; an idle keep-alive connection is closed", async () => {
    const body = JSON.stringify({ refresh_token: "r".repeat(40), client_key: "k".repeat(43) });
    const [dripBody, dripHeaders, idle] = await Promise.all([
      slowRequest(
        port,
        `POST /connect/testauth/refresh HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`,
        body,
        2_000,
      ),
      slowRequest(port, "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n", "X-Slow: ".padEnd(200, "a"), 1_000),
      slowRequest(port, "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", "", 1_000),
    ]);
    expect(dripBody.status).toBe(408);
    expect(dripBody.closedAfterMs).toBeLessThan(30_000);
    // The body never finished: the route was never reached.
    expect(dripBody.sentBytes).toBeLessThan(body.length + 200);
    expect(dripHeaders.status).toBe(408);
    expect(dripHeaders.closedAfterMs).toBeLessThan(30_000);
    // A complete request is answered, then the idle keep-alive connection is closed by the server.
    expect(idle.status).toBe(200);
    expect(idle.closedAfterMs).toBeLessThan(15_000);
  }, 60_000);
});
