import type { AddressInfo } from "node:net";
import { ready } from "@eleven-integrations/grants";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CALLER_TOKEN } from "../__fixtures__/grant-kit.js";
import { slowRequest } from "@eleven-integrations/test-support";
import { testApp } from "../__fixtures__/test-app.js";

let app: FastifyInstance;
let port: number;

beforeAll(async () => {
  await ready();
  app = (await testApp()).app;
  await app.listen({ host: "127.0.0.1", port: 0 });
  port = (app.server.address() as AddressInfo).port;
});
afterAll(async () => {
  await app?.close();
});

describe("the sidecar's own timeouts (defaults)", () => {
  it("a body dripped one byte at a time by the bot ends in 408 within 30 s; dripped headers too", async () => {
    const body = JSON.stringify({ grant: "eg1.x", op: "issues.list" });
    const head = (authorization: string) =>
      `POST /v1/run HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: ${authorization}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`;
    const [dripBody, dripHeaders] = await Promise.all([
      slowRequest(port, head(`Bearer ${CALLER_TOKEN}`), body, 2_000),
      slowRequest(port, `GET /v1/identity HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n`, "X-Slow: ".padEnd(200, "a"), 1_000),
    ]);
    expect(dripBody.status).toBe(408);
    expect(dripBody.closedAfterMs).toBeLessThan(30_000);
    expect(dripHeaders.status).toBe(408);
    expect(dripHeaders.closedAfterMs).toBeLessThan(30_000);
  }, 60_000);

  it("a client that sent a wrong caller token is answered 401 and disconnected, however much body it still means to send", async () => {
    const body = "x".repeat(10_000);
    const answer = await slowRequest(
      port,
      `POST /v1/run HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer not-the-caller-token\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n{`,
      body,
      200,
    );
    expect(answer.status).toBe(401);
    expect(answer.closedAfterMs).toBeLessThan(5_000);
    expect(answer.sentBytes).toBeLessThan(1_000);
  });
});
