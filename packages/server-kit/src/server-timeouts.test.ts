import { describe, expect, it } from "vitest";
import { serverTimeoutOptions } from "./server-timeouts.js";

describe("serverTimeoutOptions", () => {
  it("gives both apps the same defaults: 15 s for a request, 10 s for its headers, 5 s keep-alive, 30 s idle, checked every second", () => {
    expect(serverTimeoutOptions()).toEqual({
      requestTimeout: 15_000,
      keepAliveTimeout: 5_000,
      connectionTimeout: 30_000,
      http: { headersTimeout: 10_000, connectionsCheckingInterval: 1_000 },
    });
  });

  it("takes each setting, and never lets the headers wait longer than the whole request (Node 20 would ignore the request timeout)", () => {
    expect(serverTimeoutOptions({ requestMs: 4_000, headersMs: 9_000, keepAliveMs: 700, idleMs: 8_000 })).toEqual({
      requestTimeout: 4_000,
      keepAliveTimeout: 700,
      connectionTimeout: 8_000,
      http: { headersTimeout: 4_000, connectionsCheckingInterval: 1_000 },
    });
  });
});
