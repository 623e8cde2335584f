import { describe, expect, it } from "vitest";
import { createWindowCounters } from "./window-counter.js";

describe("window counters", () => {
  it("counts per key within a window and answers how long until it resets", () => {
    const counters = createWindowCounters({ windowMs: 60_000, maxKeys: 10 });
    expect(counters.take("a", 2, 0)).toEqual({ ok: true });
    expect(counters.take("a", 2, 1_000)).toEqual({ ok: true });
    expect(counters.take("a", 2, 2_000)).toEqual({ ok: false, retryAfterSeconds: 58 });
    expect(counters.peek("a", 2, 2_000).ok).toBe(false);
    expect(counters.take("b", 2, 2_000)).toEqual({ ok: true });
    expect(counters.take("a", 2, 60_000)).toEqual({ ok: true });
  });

  it("evicts the least recently used key rather than refusing a new one when full", () => {
    const counters = createWindowCounters({ windowMs: 60_000, maxKeys: 100 });
    for (let i = 0; i < 50_000; i += 1) counters.take(`junk-${i}`, 1, 0);
    expect(counters.size).toBe(100);
    expect(counters.take("new member", 1, 0)).toEqual({ ok: true });
    expect(counters.size).toBe(100);
  });
});
