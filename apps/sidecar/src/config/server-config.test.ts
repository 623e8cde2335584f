import { describe, expect, it } from "vitest";
import { optionsFromEnvironment } from "./server-config.js";

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

  it("takes SIDECAR_METRICS_PORT (0 for a free port) and refuses one that is no port number", () => {
    expect(optionsFromEnvironment({ SIDECAR_METRICS_PORT: "0" })).toEqual({ logger: { level: "info" }, metricsPort: 0 });
    expect(optionsFromEnvironment({ SIDECAR_METRICS_PORT: "9464" })).toEqual({ logger: { level: "info" }, metricsPort: 9464 });
    expect(() => optionsFromEnvironment({ SIDECAR_METRICS_PORT: "metrics" })).toThrow(/SIDECAR_METRICS_PORT must be a port number/);
  });

  it("takes REDIS_URL and the rate limits as <runs>/<seconds>", () => {
    expect(optionsFromEnvironment({ REDIS_URL: "redis://127.0.0.1:6379/2", RATE_LIMIT_GRANT: "10/60", RATE_LIMIT_INTEGRATION: "100/3600" })).toEqual({
      logger: { level: "info" },
      redisUrl: "redis://127.0.0.1:6379/2",
      rateLimits: { perGrant: { points: 10, durationSeconds: 60 }, perIntegration: { points: 100, durationSeconds: 3600 } },
    });
  });

  it("takes SIDECAR_REDIS_SENTINELS as comma-separated host:port and SIDECAR_REDIS_NAME", () => {
    expect(optionsFromEnvironment({ SIDECAR_REDIS_SENTINELS: "10.0.0.1:26379, sentinel-b:26379,", SIDECAR_REDIS_NAME: "eleven" })).toEqual({
      logger: { level: "info" },
      redisSentinels: ["10.0.0.1:26379", "sentinel-b:26379"],
      redisName: "eleven",
    });
    expect(() => optionsFromEnvironment({ SIDECAR_REDIS_NAME: "two words" })).toThrow(/SIDECAR_REDIS_NAME must be the monitored primary's name/);
  });

  it.each([
    ["RATE_LIMIT_GRANT", "10"],
    ["RATE_LIMIT_GRANT", "0/60"],
    ["RATE_LIMIT_INTEGRATION", "ten/60"],
    ["REDIS_URL", "http://127.0.0.1:6379"],
  ])("refuses %s=%s", (name, value) => {
    expect(() => optionsFromEnvironment({ [name]: value })).toThrow(new RegExp(name));
  });

  it.each(["80a", "-1", "1e3", " 80", "999999"])("refuses PORT=%s", (port) => {
    expect(() => optionsFromEnvironment({ PORT: port })).toThrow(/PORT must be a port number/);
  });

  it("names every malformed variable in one error, never quoting a value", () => {
    const error = (() => {
      try {
        optionsFromEnvironment({ PORT: "80a", REDIS_URL: "http://user:hunter2-secret@127.0.0.1", LOG_LEVEL: "chatty" });
      } catch (thrown) {
        return thrown as Error;
      }
      return undefined;
    })();
    expect(error?.message).toMatch(/PORT must be a port number/);
    expect(error?.message).toMatch(/LOG_LEVEL must be one of/);
    expect(error?.message).toMatch(/REDIS_URL must be a redis:\/\/ or rediss:\/\/ URL/);
    expect(error?.message).not.toContain("hunter2");
  });

  it("reads SIDECAR_AUDIT_ROTATE_BYTES as a number of bytes, and refuses less than 1000 or a non-number", () => {
    expect(optionsFromEnvironment({ SIDECAR_AUDIT_ROTATE_BYTES: "1048576" })).toEqual({ logger: { level: "info" }, auditRotateBytes: 1048576 });
    expect(() => optionsFromEnvironment({ SIDECAR_AUDIT_ROTATE_BYTES: "999" })).toThrow(/SIDECAR_AUDIT_ROTATE_BYTES must be a number of bytes/);
    expect(() => optionsFromEnvironment({ SIDECAR_AUDIT_ROTATE_BYTES: "1MB" })).toThrow(/SIDECAR_AUDIT_ROTATE_BYTES must be a number of bytes/);
  });

  it("takes a blank variable for an unset one", () => {
    expect(optionsFromEnvironment({ SIDECAR_HOME: "", PORT: "  ", LOG_LEVEL: "", SIDECAR_REGISTRY_KEYS: " " })).toEqual({ logger: { level: "info" } });
  });

  it("splits SIDECAR_REGISTRY_KEYS and reads SIDECAR_REGISTRY_SYNC_MS and SIDECAR_REVOCATION_SYNC_MS as numbers", () => {
    expect(
      optionsFromEnvironment({
        SIDECAR_REGISTRY_URL: "https://broker.example.com/registry.signed",
        SIDECAR_REGISTRY_KEYS: " a, b ,",
        SIDECAR_REGISTRY_SYNC_MS: "500",
        SIDECAR_REVOCATION_SYNC_MS: "2500",
      }),
    ).toEqual({
      logger: { level: "info" },
      registryUrl: "https://broker.example.com/registry.signed",
      registryKeys: ["a", "b"],
      registrySyncMs: 500,
      revocationSyncMs: 2500,
    });
  });
});
