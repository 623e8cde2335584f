import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ReplayCache } from "./replay-cache.js";

describe("ReplayCache", () => {
  it("accepts a key once until it expires, then again", () => {
    const cache = new ReplayCache();
    expect(cache.consume("a", 100, 0)).toBe(true);
    expect(cache.consume("a", 100, 50)).toBe(false);
    expect(cache.consume("a", 100, 99)).toBe(false);
    expect(cache.consume("a", 200, 100)).toBe(true);
  });

  it("refuses new keys when full of unexpired ones, never evicting one", () => {
    const cache = new ReplayCache({ maxEntries: 2 });
    expect(cache.consume("a", 100, 0)).toBe(true);
    expect(cache.consume("b", 50, 0)).toBe(true);
    expect(cache.consume("c", 100, 10)).toBe(false);
    expect(cache.consume("a", 100, 10)).toBe(false);
    expect(cache.consume("b", 50, 10)).toBe(false);
    // Once b expires its place frees up; a is still held.
    expect(cache.consume("c", 100, 50)).toBe(true);
    expect(cache.size).toBe(2);
    expect(cache.consume("a", 100, 60)).toBe(false);
  });

  it("purges expired keys in expiry order whatever the insertion order", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 1000 }), { minLength: 1, maxLength: 60 }), fc.integer({ min: 0, max: 1000 }), (exps, now) => {
        const cache = new ReplayCache();
        exps.forEach((exp, index) => {
          expect(cache.consume(`k${index}`, exp, 0)).toBe(true);
        });
        cache.consume("probe", now + 1, now);
        const unexpired = exps.filter((exp) => exp > now).length;
        expect(cache.size).toBe(unexpired + 1);
        exps.forEach((exp, index) => {
          expect(cache.consume(`k${index}`, exp + 1000, now)).toBe(exp <= now);
        });
      }),
      { numRuns: 200 },
    );
  });

  it("refuses a capacity that is not a positive integer", () => {
    expect(() => new ReplayCache({ maxEntries: 0 })).toThrow(RangeError);
    expect(() => new ReplayCache({ maxEntries: 1.5 })).toThrow(RangeError);
    expect(new ReplayCache().maxEntries).toBe(100_000);
  });
});
