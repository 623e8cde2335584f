import { createHash } from "node:crypto";
import type { Redis } from "ioredis";
import { createWindowCounters, type WindowCounters, type WindowDecision } from "./window-counter.js";

/** Provider calls a window allows, per budget. Callers who join a refresh already in flight are not counted. */
export interface RefreshLimits {
  /** Provider calls for the whole broker (default 600): bounds what any number of addresses and keys can spend. */
  global?: number;
  /** Provider calls per client address (default 30). */
  perAddress?: number;
  /** Provider calls per member client key (default 10). */
  perClientKey?: number;
  /** Provider calls with one refresh token, whoever asks (default 3). */
  perRefreshToken?: number;
  /** The window, in seconds (default 60). */
  windowSeconds?: number;
}

export type RefreshDecision = WindowDecision;

/** Who a refresh comes from and what it spends. */
export interface RefreshCaller {
  address: string;
  clientKey: string;
  refreshToken: string;
}

/**
 * Decides whether a refresh may reach the provider. `admit` is checked first,
 * before anything is parsed or kept per caller-chosen value: is there budget
 * left globally and for this address? `take` then counts one provider call
 * against every budget, only for the caller that makes it (the flight's leader).
 */
export interface RefreshLimiter {
  admit(address: string, nowMs: number): Promise<RefreshDecision>;
  take(caller: RefreshCaller, nowMs: number): Promise<RefreshDecision>;
}

export const DEFAULT_REFRESH_LIMITS = { global: 600, perAddress: 30, perClientKey: 10, perRefreshToken: 3, windowSeconds: 60 } as const;
/** Per-key counters kept at most, per kind; past it the least recently used is evicted, never a new key refused. */
const MAX_COUNTERS = 50_000;

/** A caller-chosen value as a counter key: its SHA-256, so no token is kept. */
export function refreshTokenKey(value: string): string {
  return createHash("sha256").update(value, "utf8").digest("base64url");
}

function resolved(limits: RefreshLimits) {
  return { ...DEFAULT_REFRESH_LIMITS, ...Object.fromEntries(Object.entries(limits).filter(([, value]) => value !== undefined)) } as Required<RefreshLimits>;
}

/** The budgets a caller spends, as `[kind, key, limit]`, global first. */
function budgets(limits: Required<RefreshLimits>, caller: RefreshCaller): [string, string, number][] {
  return [
    ["global", "all", limits.global],
    ["address", caller.address, limits.perAddress],
    ["client", caller.clientKey, limits.perClientKey],
    ["token", refreshTokenKey(caller.refreshToken), limits.perRefreshToken],
  ];
}

/**
 * Fixed-window counters in this process, one bounded LRU map per kind: a flood
 * of throw-away client keys or tokens evicts old counters (the global and
 * per-address budgets still bound what it spends) and never refuses a new member.
 */
export function createMemoryRefreshLimiter(limits: RefreshLimits = {}): RefreshLimiter {
  const all = resolved(limits);
  const windowMs = all.windowSeconds * 1000;
  const counters = new Map<string, WindowCounters>([
    ["global", createWindowCounters({ windowMs, maxKeys: 1 })],
    ["address", createWindowCounters({ windowMs, maxKeys: MAX_COUNTERS })],
    ["client", createWindowCounters({ windowMs, maxKeys: MAX_COUNTERS })],
    ["token", createWindowCounters({ windowMs, maxKeys: MAX_COUNTERS })],
  ]);
  const of = (kind: string) => counters.get(kind) as WindowCounters;
  return {
    async admit(address, nowMs) {
      const global = of("global").peek("all", all.global, nowMs);
      return global.ok ? of("address").peek(address, all.perAddress, nowMs) : global;
    },
    async take(caller, nowMs) {
      const spent = budgets(all, caller);
      for (const [kind, key, limit] of spent) {
        const decision = of(kind).peek(key, limit, nowMs);
        if (!decision.ok) return decision;
      }
      for (const [kind, key, limit] of spent) of(kind).take(key, limit, nowMs);
      return { ok: true };
    },
  };
}

// KEYS: the counters; ARGV: window ms, then each key's limit. Refuses (answering the
// milliseconds left) if any is at its limit, else counts one in every one.
const TAKE = `
for i, key in ipairs(KEYS) do
  local count = tonumber(redis.call('get', key) or '0')
  if count >= tonumber(ARGV[i + 1]) then
    local left = redis.call('pttl', key)
    if left < 0 then left = tonumber(ARGV[1]) end
    return left
  end
end
for _, key in ipairs(KEYS) do
  if redis.call('incr', key) == 1 then redis.call('pexpire', key, ARGV[1]) end
end
return -1`;
// KEYS: the counters; ARGV: their limits. Counts nothing.
const PEEK = `
for i, key in ipairs(KEYS) do
  if tonumber(redis.call('get', key) or '0') >= tonumber(ARGV[i]) then
    local left = redis.call('pttl', key)
    if left < 0 then left = 1000 end
    return left
  end
end
return -1`;

/**
 * The same budgets shared by every broker instance through Redis (counters
 * that expire with their window, so Redis holds only live ones). While Redis
 * is unreachable, each instance falls back to its own counters.
 */
export function createRedisRefreshLimiter(client: Redis, limits: RefreshLimits = {}): RefreshLimiter {
  const all = resolved(limits);
  const windowMs = all.windowSeconds * 1000;
  const local = createMemoryRefreshLimiter(limits);
  const name = (kind: string, key: string) => `eleven:broker:refresh-budget:${kind}:${kind === "global" ? key : refreshTokenKey(key)}`;
  const decision = (left: unknown): RefreshDecision =>
    typeof left === "number" && left >= 0 ? { ok: false, retryAfterSeconds: Math.max(1, Math.ceil(left / 1000)) } : { ok: true };
  return {
    async admit(address, nowMs) {
      try {
        const keys = [name("global", "all"), name("address", address)];
        return decision(await client.eval(PEEK, keys.length, ...keys, all.global, all.perAddress));
      } catch {
        return local.admit(address, nowMs);
      }
    },
    async take(caller, nowMs) {
      const spent = budgets(all, caller);
      try {
        const keys = spent.map(([kind, key]) => name(kind, key));
        return decision(await client.eval(TAKE, keys.length, ...keys, windowMs, ...spent.map(([, , limit]) => limit)));
      } catch {
        return local.take(caller, nowMs);
      }
    },
  };
}
