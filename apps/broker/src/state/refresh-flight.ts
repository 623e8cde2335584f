import { createHash, randomUUID } from "node:crypto";
import { secretboxOpen, secretboxSeal } from "@eleven-integrations/grants";
import type { FastifyBaseLogger } from "fastify";
import type { Redis } from "ioredis";
import { createRedisClient, type RedisTarget } from "./redis-connection.js";
import type { TokenEndpointResponse } from "oauth4webapi";
import { BrokerError, type BrokerErrorCode } from "../http/broker-error.js";

/** What one refresh came to, as every caller of the same refresh token receives it. */
export type RefreshOutcome = { ok: true; tokens: TokenEndpointResponse } | { ok: false; code: BrokerErrorCode; message: string; retryAfterSeconds?: number };

/** Runs each refresh of one refresh token once, however many callers ask at the same time. */
export interface RefreshFlights {
  /**
   * Runs `call` for `refreshToken` of `integration` unless the same refresh is
   * already running (here or, with Redis, on another broker instance) or just
   * finished; then answers that one's outcome instead.
   */
  run(integration: string, refreshToken: string, call: () => Promise<RefreshOutcome>, log: FastifyBaseLogger): Promise<RefreshOutcome>;
  /** Waits (at most 2 s) for Redis to be reachable; a Redis that is down does not keep the broker from starting. */
  open(): Promise<void>;
  close(): Promise<void>;
}

export interface RefreshFlightOptions {
  /** Shared by the broker instances (one Redis, or Sentinel); without it, single flight within this process. */
  redis?: RedisTarget;
  /** Seals the stored outcome (it holds the member's new tokens): the broker's state key. */
  stateKey: string;
  /** Every key an outcome may open with (the current one first, then older ones). */
  stateKeys: readonly string[];
  /** How long the provider call may take (the broker's outbound deadline), in ms. */
  callTimeoutMs: number;
  /** How long a successful outcome stays in Redis for the instances waiting on it, in ms. Default 30 000. */
  resultTtlMs?: number;
  /** The same for a failure, in ms. Default 5 000. */
  failureTtlMs?: number;
  /** How often a waiting instance looks for the outcome, in ms. Default 50. */
  pollMs?: number;
}

/** A refresh token identified without storing it: SHA-256 of the integration and the token. */
export function flightId(integration: string, refreshToken: string): string {
  return createHash("sha256").update(integration).update("\0").update(refreshToken).digest("base64url");
}

/**
 * Single flight for refreshes. Providers that rotate refresh tokens accept each
 * one once: when two callers refresh the same token at once, the loser's call
 * fails and its copy of the token is dead. So concurrent refreshes of one token
 * share one provider call. In process, callers join the promise in flight; with
 * Redis, the first instance to take the lock (`SET NX PX`, value: its flight id)
 * calls the provider and stores the outcome under its flight id, sealed with the
 * state key (`crypto_secretbox`), for a short while; the instances that found
 * the lock taken wait for that outcome. A refresh that starts after the flight
 * ended is a new flight. Each caller then seals the tokens to its own client key.
 */
export function createRefreshFlights(options: RefreshFlightOptions): RefreshFlights {
  const resultTtlMs = options.resultTtlMs ?? 30_000;
  const failureTtlMs = options.failureTtlMs ?? 5_000;
  const local = new Map<string, Promise<RefreshOutcome>>();
  const redis = options.redis === undefined ? undefined : new SharedFlights(options.redis, options, resultTtlMs, failureTtlMs);

  function remember(id: string, outcome: Promise<RefreshOutcome>): void {
    local.set(id, outcome);
    // Only callers that arrive while it is in flight share it: a refresh token presented after is a new refresh
    // (a rotating provider then refuses it, as it should).
    const forget = () => {
      if (local.get(id) === outcome) local.delete(id);
    };
    outcome.then(forget, forget);
  }

  return {
    run(integration, refreshToken, call, log) {
      const id = flightId(integration, refreshToken);
      const known = local.get(id);
      if (known !== undefined) return known;
      const outcome = redis === undefined ? call() : redis.run(id, call, log);
      remember(id, outcome);
      return outcome;
    },
    open: async () => {
      await redis?.open();
    },
    close: async () => {
      local.clear();
      await redis?.close();
    },
  };
}

const RELEASE_LOCK = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

class SharedFlights {
  private readonly client: Redis;
  private lastWarning = 0;

  constructor(
    target: RedisTarget,
    private readonly options: RefreshFlightOptions,
    private readonly resultTtlMs: number,
    private readonly failureTtlMs: number,
  ) {
    this.client = createRedisClient(target);
  }

  async run(id: string, call: () => Promise<RefreshOutcome>, log: FastifyBaseLogger): Promise<RefreshOutcome> {
    const key = `eleven:broker:refresh:${id}`;
    const lockMs = this.options.callTimeoutMs + 5_000;
    const deadline = Date.now() + lockMs + 2_000;
    const owner = randomUUID();
    const poll = () => sleep(this.options.pollMs ?? 50);
    try {
      while (Date.now() < deadline) {
        if ((await this.client.set(`${key}:lock`, owner, "PX", lockMs, "NX")) === "OK") {
          const outcome = await call();
          await this.store(`${key}:result:${owner}`, outcome).catch((error: unknown) => this.warn(log, error));
          // Released only if still ours (a call that outlived the lock must not free another instance's).
          await this.client.eval(RELEASE_LOCK, 1, `${key}:lock`, owner).catch(() => undefined);
          return outcome;
        }
        // Another instance is calling the provider with this token: wait for its outcome.
        const holder = await this.client.get(`${key}:lock`);
        if (holder === null) continue;
        while (Date.now() < deadline) {
          const stored = await this.client.get(`${key}:result:${holder}`);
          if (stored !== null) return this.unseal(stored);
          if ((await this.client.get(`${key}:lock`)) !== holder) {
            // Finished (look once more for its outcome) or gone without one (then try ourselves).
            const last = await this.client.get(`${key}:result:${holder}`);
            if (last !== null) return this.unseal(last);
            break;
          }
          await poll();
        }
      }
    } catch (error) {
      if (BrokerError.isInstance(error)) throw error;
      // Redis unreachable: refresh anyway, single flight within this process only.
      this.warn(log, error);
      return call();
    }
    return { ok: false, code: "provider_error", message: "another broker instance is still refreshing this token; try again" };
  }

  async open(): Promise<void> {
    if (this.client.status === "ready") return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, 2000);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.client.once("ready", done);
    });
  }

  async close(): Promise<void> {
    if (this.client.status === "ready") await this.client.quit().catch(() => this.client.disconnect());
    else this.client.disconnect();
  }

  private async store(resultKey: string, outcome: RefreshOutcome): Promise<void> {
    const sealed = secretboxSeal(JSON.stringify(outcome), this.options.stateKey);
    await this.client.set(resultKey, sealed, "PX", outcome.ok ? this.resultTtlMs : this.failureTtlMs);
  }

  private unseal(stored: string): RefreshOutcome {
    const opened = secretboxOpen(stored, [...this.options.stateKeys]);
    if (opened === undefined) throw new BrokerError("provider_error", "a stored refresh outcome did not open with this broker's state keys");
    return JSON.parse(new TextDecoder().decode(opened)) as RefreshOutcome;
  }

  private warn(log: FastifyBaseLogger, error: unknown): void {
    if (Date.now() - this.lastWarning < 30_000) return;
    this.lastWarning = Date.now();
    const kind = error instanceof Error ? ((error as NodeJS.ErrnoException).code ?? error.name) : "Error";
    log.warn({ kind }, "redis unreachable: refreshes are single-flight within this instance only");
  }
}

/** Refreshes through `flights`: the provider's failure becomes the same `BrokerError` for every caller. */
export async function refreshOnce(
  flights: RefreshFlights,
  integration: string,
  refreshToken: string,
  call: () => Promise<TokenEndpointResponse>,
  failure: (error: unknown) => BrokerError,
  log: FastifyBaseLogger,
): Promise<TokenEndpointResponse> {
  const outcome = await flights.run(
    integration,
    refreshToken,
    async () => {
      try {
        return { ok: true, tokens: await call() };
      } catch (error) {
        // A refusal of our own (the budgets) is shared as it is; a provider failure is classified.
        const refused = BrokerError.isInstance(error) ? error : failure(error);
        return {
          ok: false,
          code: refused.code,
          message: refused.message,
          ...(refused.retryAfterSeconds === undefined ? {} : { retryAfterSeconds: refused.retryAfterSeconds }),
        };
      }
    },
    log,
  );
  if (!outcome.ok)
    throw new BrokerError(outcome.code, outcome.message, outcome.retryAfterSeconds === undefined ? {} : { retryAfterSeconds: outcome.retryAfterSeconds });
  return outcome.tokens;
}
