import { createHash } from "node:crypto";

/** How many refreshes a window allows, per member client key and per refresh token. */
export interface RefreshLimits {
  /** Refreshes per client key per window (default 10). */
  perClientKey?: number;
  /** Refreshes of one refresh token per window, whoever asks (default 3). */
  perRefreshToken?: number;
  /** The window, in seconds (default 60). */
  windowSeconds?: number;
}

export type RefreshDecision = { ok: true } | { ok: false; retryAfterSeconds: number };

/**
 * Decides whether a refresh may reach the provider. The refresh route only
 * sees this interface, so an implementation backed by a shared store (Redis)
 * can replace the in-process one without touching the route.
 */
export interface RefreshLimiter {
  take(request: { clientKey: string; refreshToken: string }, nowMs: number): Promise<RefreshDecision>;
}

const DEFAULT_LIMITS = { perClientKey: 10, perRefreshToken: 3, windowSeconds: 60 } as const;
/** Counters kept at most; past it, expired ones are swept, and if none expired new keys are refused rather than tracked. */
const MAX_COUNTERS = 100_000;

interface Counter {
  count: number;
  resetAtMs: number;
}

/** The refresh token as a limiter key: its sha-256, so the token itself is never kept. */
export function refreshTokenKey(refreshToken: string): string {
  return createHash("sha256").update(refreshToken, "utf8").digest("base64url");
}

/**
 * Fixed-window counters in this process. A request counts against its client
 * key and its refresh token; either over its limit refuses it, and a burst of
 * refreshes of one token from any number of client keys reaches the provider
 * at most `perRefreshToken` times per window.
 */
export function createMemoryRefreshLimiter(limits: RefreshLimits = {}): RefreshLimiter {
  const perClientKey = limits.perClientKey ?? DEFAULT_LIMITS.perClientKey;
  const perRefreshToken = limits.perRefreshToken ?? DEFAULT_LIMITS.perRefreshToken;
  const windowMs = (limits.windowSeconds ?? DEFAULT_LIMITS.windowSeconds) * 1000;
  const counters = new Map<string, Counter>();

  const sweep = (nowMs: number) => {
    for (const [key, counter] of counters) if (counter.resetAtMs <= nowMs) counters.delete(key);
  };
  /** The counter for `key` in the current window, or undefined when no room is left to track it. */
  const counterFor = (key: string, nowMs: number): Counter | undefined => {
    const existing = counters.get(key);
    if (existing !== undefined && existing.resetAtMs > nowMs) return existing;
    if (existing === undefined && counters.size >= MAX_COUNTERS) {
      sweep(nowMs);
      if (counters.size >= MAX_COUNTERS) return undefined;
    }
    const fresh = { count: 0, resetAtMs: nowMs + windowMs };
    counters.set(key, fresh);
    return fresh;
  };

  return {
    async take({ clientKey, refreshToken }, nowMs) {
      const checks: [string, number][] = [
        [`client:${clientKey}`, perClientKey],
        [`token:${refreshTokenKey(refreshToken)}`, perRefreshToken],
      ];
      const taken: Counter[] = [];
      for (const [key, limit] of checks) {
        const counter = counterFor(key, nowMs);
        if (counter === undefined) return { ok: false, retryAfterSeconds: Math.ceil(windowMs / 1000) };
        if (counter.count >= limit) return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((counter.resetAtMs - nowMs) / 1000)) };
        taken.push(counter);
      }
      for (const counter of taken) counter.count += 1;
      return { ok: true };
    },
  };
}
