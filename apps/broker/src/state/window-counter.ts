/** What one fixed-window counter answers: room left, or how long until the window resets. */
export type WindowDecision = { ok: true } | { ok: false; retryAfterSeconds: number };

/** Fixed-window counters keyed by caller-controlled values, bounded in memory. */
export interface WindowCounters {
  /** Counts one event for `key` if it is under `limit` in the current window. */
  take(key: string, limit: number, nowMs: number): WindowDecision;
  /** The decision `take` would make, counting nothing. */
  peek(key: string, limit: number, nowMs: number): WindowDecision;
  /** How many keys are tracked (at most `maxKeys`). */
  readonly size: number;
}

interface Counter {
  count: number;
  resetAtMs: number;
}

/**
 * Fixed-window counters in a least-recently-used map of at most `maxKeys`:
 * a new key evicts the stalest one rather than being refused. A flood of
 * throw-away keys can therefore only forget counts (bounded by a global
 * budget checked beside it), never lock a new caller out.
 */
export function createWindowCounters(options: { windowMs: number; maxKeys: number }): WindowCounters {
  const counters = new Map<string, Counter>();
  const current = (key: string, nowMs: number): Counter | undefined => {
    const counter = counters.get(key);
    if (counter === undefined || counter.resetAtMs <= nowMs) return undefined;
    return counter;
  };
  const decide = (counter: Counter | undefined, limit: number, nowMs: number): WindowDecision =>
    counter !== undefined && counter.count >= limit
      ? { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((counter.resetAtMs - nowMs) / 1000)) }
      : { ok: true };
  return {
    take(key, limit, nowMs) {
      let counter = current(key, nowMs);
      const decision = decide(counter, limit, nowMs);
      if (!decision.ok) return decision;
      if (counter === undefined) counter = { count: 0, resetAtMs: nowMs + options.windowMs };
      counter.count += 1;
      // Re-inserted so the map's order is least recently used first.
      counters.delete(key);
      counters.set(key, counter);
      while (counters.size > options.maxKeys) {
        const oldest = counters.keys().next().value;
        if (oldest === undefined) break;
        counters.delete(oldest);
      }
      return decision;
    },
    peek(key, limit, nowMs) {
      return decide(current(key, nowMs), limit, nowMs);
    },
    get size() {
      return counters.size;
    },
  };
}
