import { RateLimiterMemory, RateLimiterRes, type RateLimiterAbstract } from "rate-limiter-flexible";
import { DEFAULT_RATE_LIMITS, retryAfterSeconds, type RateDecision, type RateLimit, type RateLimits } from "./shared-state.js";

/** The limits in force: the configured ones over the defaults. */
export function resolveRateLimits(limits: RateLimits | undefined): Required<RateLimits> {
  return {
    perGrant: limits?.perGrant ?? DEFAULT_RATE_LIMITS.perGrant,
    perIntegration: limits?.perIntegration ?? DEFAULT_RATE_LIMITS.perIntegration,
  };
}

/** A limit as `rate-limiter-flexible` takes it. */
export function limiterOptions(limit: RateLimit): { points: number; duration: number } {
  return { points: limit.points, duration: limit.durationSeconds };
}

/** The grant and integration limiters of one store. */
export interface LimiterPair {
  grant: RateLimiterAbstract;
  integration: RateLimiterAbstract;
}

export function memoryLimiters(limits: Required<RateLimits>): LimiterPair {
  return {
    grant: new RateLimiterMemory({ keyPrefix: "grant", ...limiterOptions(limits.perGrant) }),
    integration: new RateLimiterMemory({ keyPrefix: "integration", ...limiterOptions(limits.perIntegration) }),
  };
}

/**
 * Counts one run against the grant's limit, then the integration's. A refusal
 * is a decision; any other failure (the store) is thrown for the caller.
 */
export async function consumeBoth(pair: LimiterPair, member: string, gid: string, integration: string): Promise<RateDecision> {
  try {
    // Keyed by member and grant: another member's grant that reuses this gid counts apart.
    await pair.grant.consume(`${member}:${gid}`);
  } catch (error) {
    if (error instanceof RateLimiterRes) return { ok: false, scope: "grant", retryAfterSeconds: retryAfterSeconds(error.msBeforeNext) };
    throw error;
  }
  try {
    await pair.integration.consume(integration);
  } catch (error) {
    if (error instanceof RateLimiterRes) return { ok: false, scope: "integration", retryAfterSeconds: retryAfterSeconds(error.msBeforeNext) };
    throw error;
  }
  return { ok: true };
}
