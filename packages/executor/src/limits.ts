/** Bounds on one executor's runs. Every field is optional; see {@link DEFAULT_LIMITS}. */
export interface ExecutorLimits {
  /** Bytes of response body read before the run ends in `response_too_large`. Default 8 MiB. */
  readonly maxResponseBytes?: number;
  /** Bytes of the serialised envelope (`JSON.stringify`, UTF-8) before `result_too_large`. Default 48 KiB. */
  readonly maxResultBytes?: number;
  /** Deadline of the whole run, retries and waits included, in milliseconds. Default 15 000. */
  readonly timeoutMs?: number;
  /** Extra attempts a `GET` read may make on 429/502/503/504 or a refused or reset connection. Default 2. */
  readonly retries?: number;
  /**
   * Response bytes all concurrent runs of one executor may hold at once. The oldest body
   * being read always reads on; the others pause (within their deadline) while the rest
   * of the budget is held, so memory stays bounded however many runs are in flight.
   * Default 32 MiB (four maximal responses); never below `maxResponseBytes`.
   */
  readonly maxBufferedBytes?: number;
}

export type ResolvedLimits = { readonly [K in keyof ExecutorLimits]-?: number };

export const DEFAULT_LIMITS: ResolvedLimits = Object.freeze({
  maxResponseBytes: 8 * 1024 * 1024,
  maxResultBytes: 48 * 1024,
  timeoutMs: 15_000,
  retries: 2,
  maxBufferedBytes: 32 * 1024 * 1024,
});

/** The limits with defaults filled in; throws a TypeError for a value that is not a usable number. */
export function resolveLimits(limits: ExecutorLimits | undefined): ResolvedLimits {
  const resolved = { ...DEFAULT_LIMITS, ...definedOnly(limits ?? {}) };
  for (const [name, value] of Object.entries(resolved)) {
    const minimum = name === "retries" ? 0 : 1;
    if (!Number.isSafeInteger(value) || value < minimum) {
      throw new TypeError(`limits.${name} must be an integer of at least ${minimum}`);
    }
  }
  if (limits?.maxBufferedBytes === undefined) {
    resolved.maxBufferedBytes = Math.max(resolved.maxBufferedBytes, resolved.maxResponseBytes);
  } else if (resolved.maxBufferedBytes < resolved.maxResponseBytes) {
    throw new TypeError("limits.maxBufferedBytes must be at least limits.maxResponseBytes");
  }
  return Object.freeze(resolved);
}

function definedOnly(limits: ExecutorLimits): Partial<Record<keyof ExecutorLimits, number>> {
  const out: Partial<Record<keyof ExecutorLimits, number>> = {};
  for (const key of Object.keys(DEFAULT_LIMITS) as (keyof ExecutorLimits)[]) {
    const value = limits[key];
    if (value !== undefined) out[key] = value;
  }
  return out;
}
