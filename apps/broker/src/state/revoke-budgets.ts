import { createHash } from "node:crypto";
import { createWindowCounters, type WindowDecision } from "./window-counter.js";

/**
 * `POST /connect/:id/revoke` per minute; each allowed call reaches the provider with the
 * broker's client credentials. A call with the bundle's `revoke_proof` (the broker issued
 * this token) is counted per token, per address and in all among proven calls only;
 * every other call (any string as the token) is anonymous, with its own smaller budgets.
 * Junk therefore spends at most the anonymous budget of the client secret, and never
 * what a member with a proof needs.
 */
export interface RevokeLimits {
  /** Anonymous calls per client address. */
  perAddress: number;
  /** Anonymous calls in all, on this instance: the most junk can make the client secret do. */
  global: number;
  /** Proven calls per token. */
  perToken: number;
  /** Proven calls per client address. */
  provenPerAddress: number;
  /** Proven calls in all, on this instance. */
  provenGlobal: number;
}

export const DEFAULT_REVOKE_LIMITS: RevokeLimits = { perAddress: 20, global: 120, perToken: 3, provenPerAddress: 60, provenGlobal: 600 };

const WINDOW_MS = 60_000;

export interface RevokeBudgets {
  readonly limits: RevokeLimits;
  /** Counts one call (proven when `provenToken` is given) against its budgets, or refuses without counting. */
  take(address: string, provenToken: string | undefined, nowMs: number): WindowDecision;
}

export function createRevokeBudgets(limits: Partial<RevokeLimits> = {}): RevokeBudgets {
  const resolved: RevokeLimits = {
    ...DEFAULT_REVOKE_LIMITS,
    ...(Object.fromEntries(Object.entries(limits).filter(([, value]) => value !== undefined)) as Partial<RevokeLimits>),
  };
  const anonymousByAddress = createWindowCounters({ windowMs: WINDOW_MS, maxKeys: 10_000 });
  const anonymousAll = createWindowCounters({ windowMs: WINDOW_MS, maxKeys: 1 });
  const provenByToken = createWindowCounters({ windowMs: WINDOW_MS, maxKeys: 50_000 });
  const provenByAddress = createWindowCounters({ windowMs: WINDOW_MS, maxKeys: 10_000 });
  const provenAll = createWindowCounters({ windowMs: WINDOW_MS, maxKeys: 1 });
  return {
    limits: resolved,
    take(address, provenToken, nowMs) {
      const budgets: [ReturnType<typeof createWindowCounters>, string, number][] =
        provenToken === undefined
          ? [
              [anonymousByAddress, address, resolved.perAddress],
              [anonymousAll, "all", resolved.global],
            ]
          : [
              // The token's digest: no token is kept as a key.
              [provenByToken, createHash("sha256").update(provenToken).digest("base64url"), resolved.perToken],
              [provenByAddress, address, resolved.provenPerAddress],
              [provenAll, "all", resolved.provenGlobal],
            ];
      for (const [counters, key, limit] of budgets) {
        const decision = counters.peek(key, limit, nowMs);
        if (!decision.ok) return decision;
      }
      for (const [counters, key, limit] of budgets) counters.take(key, limit, nowMs);
      return { ok: true };
    },
  };
}
