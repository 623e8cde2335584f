import { EventEmitter } from "node:events";
import { describe, expect, it } from "vitest";
import { closeOnSignals, optionsFromEnvironment } from "./server-environment.js";

describe("optionsFromEnvironment", () => {
  it("defaults to no home (so ~/.eleven-sidecar), no port (so its Unix socket) and info logs", () => {
    expect(optionsFromEnvironment({})).toEqual({ logger: { level: "info" } });
  });

  it("takes SIDECAR_HOME, PORT and LOG_LEVEL", () => {
    expect(optionsFromEnvironment({ SIDECAR_HOME: "/srv/bot", PORT: "9000", LOG_LEVEL: "warn" })).toEqual({
      home: "/srv/bot",
      port: 9000,
      logger: { level: "warn" },
    });
  });

  it("takes REDIS_URL and the rate limits as <runs>/<seconds>", () => {
    expect(optionsFromEnvironment({ REDIS_URL: "redis://127.0.0.1:6379/2", RATE_LIMIT_GRANT: "10/60", RATE_LIMIT_INTEGRATION: "100/3600" })).toEqual({
      logger: { level: "info" },
      redisUrl: "redis://127.0.0.1:6379/2",
      rateLimits: { perGrant: { points: 10, durationSeconds: 60 }, perIntegration: { points: 100, durationSeconds: 3600 } },
    });
  });

  it.each([["RATE_LIMIT_GRANT", "10"], ["RATE_LIMIT_GRANT", "0/60"], ["RATE_LIMIT_INTEGRATION", "ten/60"], ["REDIS_URL", "http://127.0.0.1:6379"]])("refuses %s=%s", (name, value) => {
    expect(() => optionsFromEnvironment({ [name]: value })).toThrow(new RegExp(name));
  });

  it.each(["80a", "-1", "1e3", " 80", "999999"])("refuses PORT=%s", (port) => {
    expect(() => optionsFromEnvironment({ PORT: port })).toThrow(/PORT must be a port number/);
  });
});

describe("closeOnSignals", () => {
  it.each(["SIGINT", "SIGTERM"] as const)("closes on %s, then exits 0", async (signal) => {
    const source = new EventEmitter();
    const exits: number[] = [];
    let closed = 0;
    closeOnSignals(source, async () => {
      closed += 1;
    }, (code) => exits.push(code));
    source.emit(signal);
    await new Promise((resolve) => setImmediate(resolve));
    expect(closed).toBe(1);
    expect(exits).toEqual([0]);
  });

  it("exits 1 at once on a second signal while closing", () => {
    const source = new EventEmitter();
    const exits: number[] = [];
    closeOnSignals(source, () => new Promise<void>(() => {}), (code) => exits.push(code));
    source.emit("SIGTERM");
    source.emit("SIGINT");
    expect(exits).toEqual([1]);
  });

  it("exits 1 when closing fails", async () => {
    const source = new EventEmitter();
    const exits: number[] = [];
    closeOnSignals(source, () => Promise.reject(new Error("stuck")), (code) => exits.push(code));
    source.emit("SIGINT");
    await new Promise((resolve) => setImmediate(resolve));
    expect(exits).toEqual([1]);
  });
});
