import { describe, expect, it } from "vitest";
import { DEFAULT_LIMITS, resolveLimits } from "./limits.js";

describe("resolveLimits", () => {
  it("fills in the documented defaults", () => {
    expect(resolveLimits(undefined)).toEqual({
      maxResponseBytes: 8 * 1024 * 1024,
      maxResultBytes: 48 * 1024,
      timeoutMs: 15_000,
      retries: 2,
      maxBufferedBytes: 32 * 1024 * 1024,
    });
    expect(resolveLimits({ retries: 0, timeoutMs: 500 })).toMatchObject({ ...DEFAULT_LIMITS, retries: 0, timeoutMs: 500 });
  });

  it("raises the default buffer budget to fit one maximal response", () => {
    expect(resolveLimits({ maxResponseBytes: 100 * 1024 * 1024 }).maxBufferedBytes).toBe(100 * 1024 * 1024);
  });

  it.each([{ timeoutMs: 0 }, { retries: -1 }, { maxResultBytes: 1.5 }, { maxResponseBytes: Number.NaN }, { maxResponseBytes: 10, maxBufferedBytes: 5 }])(
    "refuses %j",
    (limits) => {
      expect(() => resolveLimits(limits)).toThrow(TypeError);
    },
  );
});
