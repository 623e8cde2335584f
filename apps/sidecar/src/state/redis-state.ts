import type { Redis } from "ioredis";
import { RateLimiterRedis } from "rate-limiter-flexible";
import { closeRedis, connectRedis, waitUntilReady } from "./redis-connection.js";
import { consumeBoth, limiterOptions, memoryLimiters, resolveRateLimits, type LimiterPair } from "./rate-limiters.js";
import { RevocationJournal } from "./revocation-journal.js";
import { StateUnavailableError, type RateDecision, type RateLimits, type SharedState, type Strictness } from "./shared-state.js";

export interface RedisStateOptions {
  /** `redis://[user:password@]host:port[/db]` (or `rediss://`). */
  url: string;
  /** Every key starts with `eleven:sidecar:<namespace>:`; the sidecar uses its bot's public key, so each bot's sidecars share and no other bot's do. */
  namespace: string;
  rateLimits?: RateLimits;
  /** One command's deadline in ms (default 1000). */
  commandTimeoutMs?: number;
  /** Told about connection errors. */
  onError?: (error: Error) => void;
}

/** The key prefix of a bot's state. */
export function redisKeyPrefix(namespace: string): string {
  return `eleven:sidecar:${namespace}:`;
}

/**
 * A bot's state in Redis, shared by all its sidecars:
 *
 * - `<prefix>replay:<gid>.<nonce>`: a consumed confirmation, `SET NX EXAT` its
 *   last valid second (at most 360 s after signing + 60 s skew).
 * - `<prefix>revoked:<gid>:<member>`: a revoked grant, `EXAT` the grant's
 *   expiry + 60 s skew (at most 3660 s).
 * - `<prefix>rl:grant:<gid>` and `<prefix>rl:integration:<id>`: run counters
 *   of `rate-limiter-flexible`, living one window (60 s by default).
 *
 * While Redis is unreachable, whatever demands the shared answer (a write)
 * gets `StateUnavailableError`; reads count against limits in this process and
 * see the revocations this sidecar has learned.
 */
export class RedisState implements SharedState {
  readonly kind = "redis" as const;
  readonly client: Redis;
  readonly prefix: string;
  private readonly shared: LimiterPair;
  private readonly local: LimiterPair;
  /** Revocations this sidecar recorded or read: what reads rely on while Redis is down. */
  private readonly known = new RevocationJournal();

  constructor(options: RedisStateOptions) {
    this.prefix = redisKeyPrefix(options.namespace);
    this.client = connectRedis(options.url, {
      ...(options.commandTimeoutMs === undefined ? {} : { commandTimeoutMs: options.commandTimeoutMs }),
      ...(options.onError === undefined ? {} : { onError: options.onError }),
    });
    const limits = resolveRateLimits(options.rateLimits);
    this.shared = {
      grant: new RateLimiterRedis({ storeClient: this.client, keyPrefix: `${this.prefix}rl:grant`, rejectIfRedisNotReady: true, ...limiterOptions(limits.perGrant) }),
      integration: new RateLimiterRedis({
        storeClient: this.client,
        keyPrefix: `${this.prefix}rl:integration`,
        rejectIfRedisNotReady: true,
        ...limiterOptions(limits.perIntegration),
      }),
    };
    this.local = memoryLimiters(limits);
  }

  /** True while commands can be sent. */
  get ready(): boolean {
    return this.client.status === "ready";
  }

  async open(): Promise<void> {
    await waitUntilReady(this.client);
  }

  async close(): Promise<void> {
    await closeRedis(this.client);
  }

  async consumeConfirmation(key: string, exp: number): Promise<boolean> {
    this.requireReady();
    try {
      return (await this.client.set(`${this.prefix}replay:${key}`, "1", "EXAT", exp, "NX")) === "OK";
    } catch (error) {
      throw unavailable(error);
    }
  }

  async takeRun(gid: string, integration: string, strictness: Strictness): Promise<RateDecision> {
    if (this.ready) {
      try {
        return await consumeBoth(this.shared, gid, integration);
      } catch (error) {
        if (strictness === "shared") throw unavailable(error);
      }
    } else if (strictness === "shared") {
      throw unavailable();
    }
    return consumeBoth(this.local, gid, integration);
  }

  async revoke(gid: string, member: string, until: number): Promise<void> {
    this.requireReady();
    try {
      await this.client.set(`${this.prefix}revoked:${gid}:${member}`, "1", "EXAT", until);
    } catch (error) {
      throw unavailable(error);
    }
    this.known.revoke(gid, member, until);
  }

  async isRevoked(gid: string, member: string, strictness: Strictness): Promise<boolean> {
    if (this.known.isRevoked(gid, member)) return true;
    if (!this.ready) {
      if (strictness === "shared") throw unavailable();
      return false;
    }
    try {
      const key = `${this.prefix}revoked:${gid}:${member}`;
      const ttlMs = await this.client.pttl(key);
      if (ttlMs === -2) return false;
      // Remembered here for as long as Redis keeps it (a key without expiry, never written by us, for an hour).
      this.known.revoke(gid, member, Math.floor(Date.now() / 1000) + (ttlMs < 0 ? 3660 : Math.ceil(ttlMs / 1000)));
      return true;
    } catch (error) {
      if (strictness === "shared") throw unavailable(error);
      return false;
    }
  }

  private requireReady(): void {
    if (!this.ready) throw unavailable();
  }
}

function unavailable(cause?: unknown): StateUnavailableError {
  return new StateUnavailableError("the shared store (Redis) is unreachable", cause === undefined ? undefined : { cause });
}
