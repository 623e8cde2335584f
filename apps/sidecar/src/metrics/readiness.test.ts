import { describe, expect, it } from "vitest";
import { Readiness } from "./readiness.js";

describe("Readiness", () => {
  it("is not ready before the app binds it", () => {
    expect(new Readiness().reasons()).toEqual(["starting"]);
  });

  it("names every reason: registry, Redis, and a sync older than three intervals", () => {
    const readiness = new Readiness({
      registryLoaded: () => false,
      redisReady: () => false,
      sync: () => ({ intervalMs: 1000, lastSuccessAt: 1000, startedAt: 0 }),
      now: () => 4001,
    });
    expect(readiness.reasons()).toEqual(["registry_not_loaded", "redis_unreachable", "registry_sync_stale"]);
  });

  it("is ready with a sync within three intervals, and without Redis or sync configured", () => {
    expect(
      new Readiness({
        registryLoaded: () => true,
        redisReady: () => true,
        sync: () => ({ intervalMs: 1000, lastSuccessAt: 1000, startedAt: 0 }),
        now: () => 4000,
      }).reasons(),
    ).toEqual([]);
    expect(new Readiness({ registryLoaded: () => true, redisReady: () => undefined, sync: () => undefined }).reasons()).toEqual([]);
  });

  it("counts a sidecar that never synced from its start", () => {
    expect(
      new Readiness({
        registryLoaded: () => true,
        redisReady: () => undefined,
        sync: () => ({ intervalMs: 100, lastSuccessAt: undefined, startedAt: 0 }),
        now: () => 301,
      }).reasons(),
    ).toEqual(["registry_sync_stale"]);
  });

  it("is not ready when the broker's revocation feed was not read to its end for three intervals", () => {
    const follow = (lastSuccessAt: number | undefined, now: number) =>
      new Readiness({
        registryLoaded: () => true,
        redisReady: () => undefined,
        sync: () => undefined,
        revocationFollow: () => ({ intervalMs: 1000, lastSuccessAt, startedAt: 0 }),
        now: () => now,
      }).reasons();
    expect(follow(1000, 4000)).toEqual([]);
    expect(follow(1000, 4001)).toEqual(["revocation_follow_stale"]);
    expect(follow(undefined, 3001)).toEqual(["revocation_follow_stale"]);
  });
});
