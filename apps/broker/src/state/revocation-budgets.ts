import { createWindowCounters, type WindowDecision } from "./window-counter.js";

/**
 * `POST /revocations` per minute. Anonymous posts (no `member`, so nothing the broker
 * can check but the shape) have their own budgets, per address and in all; a member's
 * signed post (`member` given and the signature verifies with it) is counted per member
 * key, per address and in all among signed posts only, so no amount of anonymous junk
 * spends what a member's revocation needs.
 */
export interface RevocationLimits {
  /** Anonymous posts per client address. */
  perAddress: number;
  /** Anonymous posts in all, on this instance. */
  global: number;
  /** Signed posts per member key (new revocations only: re-posting a kept one is free). */
  perMember: number;
  /** Signed posts per client address. */
  signedPerAddress: number;
  /** Signed posts in all, on this instance. */
  signedGlobal: number;
}

/**
 * Anonymous and signed together stay below what the list holds for the retention
 * (about 62 minutes): (200 + 600) x 62 = 49,600 < 50,000, so the budgets, not a
 * full list, are what a flood meets.
 */
export const DEFAULT_REVOCATION_LIMITS: RevocationLimits = { perAddress: 10, global: 200, perMember: 10, signedPerAddress: 30, signedGlobal: 600 };

const WINDOW_MS = 60_000;

/** The counters of `POST /revocations`, bounded in memory (least recently used keys forgotten, never refused). */
export interface RevocationBudgets {
  readonly limits: RevocationLimits;
  /** Counts one anonymous post against its address and the anonymous total, or refuses without counting. */
  takeAnonymous(address: string, nowMs: number): WindowDecision;
  /** Whether a signed post of `member` from `address` is within its budgets, counting nothing. */
  peekSigned(member: string, address: string, nowMs: number): WindowDecision;
  /** Counts one signed post (call once `peekSigned` allowed it and the revocation was new). */
  takeSigned(member: string, address: string, nowMs: number): void;
}

export function createRevocationBudgets(limits: Partial<RevocationLimits> = {}): RevocationBudgets {
  const resolved: RevocationLimits = { ...DEFAULT_REVOCATION_LIMITS, ...definedOnly(limits) };
  const anonymousByAddress = createWindowCounters({ windowMs: WINDOW_MS, maxKeys: 10_000 });
  const anonymousAll = createWindowCounters({ windowMs: WINDOW_MS, maxKeys: 1 });
  const signedByMember = createWindowCounters({ windowMs: WINDOW_MS, maxKeys: 50_000 });
  const signedByAddress = createWindowCounters({ windowMs: WINDOW_MS, maxKeys: 10_000 });
  const signedAll = createWindowCounters({ windowMs: WINDOW_MS, maxKeys: 1 });
  const firstRefusal = (decisions: WindowDecision[]): WindowDecision => decisions.find((decision) => !decision.ok) ?? { ok: true };
  return {
    limits: resolved,
    takeAnonymous(address, nowMs) {
      const refused = firstRefusal([anonymousByAddress.peek(address, resolved.perAddress, nowMs), anonymousAll.peek("all", resolved.global, nowMs)]);
      if (!refused.ok) return refused;
      anonymousByAddress.take(address, resolved.perAddress, nowMs);
      anonymousAll.take("all", resolved.global, nowMs);
      return { ok: true };
    },
    peekSigned(member, address, nowMs) {
      return firstRefusal([
        signedByMember.peek(member, resolved.perMember, nowMs),
        signedByAddress.peek(address, resolved.signedPerAddress, nowMs),
        signedAll.peek("all", resolved.signedGlobal, nowMs),
      ]);
    },
    takeSigned(member, address, nowMs) {
      signedByMember.take(member, resolved.perMember, nowMs);
      signedByAddress.take(address, resolved.signedPerAddress, nowMs);
      signedAll.take("all", resolved.signedGlobal, nowMs);
    },
  };
}

function definedOnly(limits: Partial<RevocationLimits>): Partial<RevocationLimits> {
  return Object.fromEntries(Object.entries(limits).filter(([, value]) => value !== undefined)) as Partial<RevocationLimits>;
}
