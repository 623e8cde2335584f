/** Default capacity of a `ReplayCache`. */
export const DEFAULT_REPLAY_ENTRIES = 100_000;

/**
 * Remembers consumed confirmation keys until they expire, in memory. When it
 * holds `maxEntries` unexpired keys it refuses new ones rather than forget one
 * that could still be replayed. For several processes, use a shared store
 * (Redis `SET key 1 NX EXAT exp`) with `verifyConfirmationAsync`.
 */
export class ReplayCache {
  readonly maxEntries: number;
  private readonly entries = new Set<string>();
  // A binary min-heap on expiry, kept as two parallel arrays so expired keys are
  // dropped in order at O(log n) each, with no allocation per entry.
  private readonly expiries: number[] = [];
  private readonly keys: string[] = [];

  constructor(options: { maxEntries?: number } = {}) {
    const maxEntries = options.maxEntries ?? DEFAULT_REPLAY_ENTRIES;
    if (!Number.isSafeInteger(maxEntries) || maxEntries < 1) throw new RangeError("maxEntries must be a positive integer");
    this.maxEntries = maxEntries;
  }

  /** Unexpired keys held (as of the last `consume`). */
  get size(): number {
    return this.entries.size;
  }

  /**
   * Records `key` until `exp` (Unix seconds). True the first time; false when the
   * key is already held, or when the cache is full of unexpired keys.
   */
  consume(key: string, exp: number, now: number): boolean {
    this.purge(now);
    if (this.entries.has(key) || this.entries.size >= this.maxEntries) return false;
    this.entries.add(key);
    this.push(exp, key);
    return true;
  }

  private purge(now: number): void {
    const { expiries } = this;
    while (expiries.length > 0 && (expiries[0] as number) <= now) this.entries.delete(this.pop());
  }

  private push(exp: number, key: string): void {
    const { expiries, keys } = this;
    let index = expiries.length;
    expiries.push(exp);
    keys.push(key);
    while (index > 0) {
      const parent = (index - 1) >> 1;
      const parentExp = expiries[parent] as number;
      if (parentExp <= exp) break;
      expiries[index] = parentExp;
      keys[index] = keys[parent] as string;
      index = parent;
    }
    expiries[index] = exp;
    keys[index] = key;
  }

  /** Removes the entry that expires first and returns its key. */
  private pop(): string {
    const { expiries, keys } = this;
    const top = keys[0] as string;
    const lastExp = expiries.pop() as number;
    const lastKey = keys.pop() as string;
    const length = expiries.length;
    if (length === 0) return top;
    let index = 0;
    for (;;) {
      const left = 2 * index + 1;
      if (left >= length) break;
      const right = left + 1;
      const child = right < length && (expiries[right] as number) < (expiries[left] as number) ? right : left;
      const childExp = expiries[child] as number;
      if (childExp >= lastExp) break;
      expiries[index] = childExp;
      keys[index] = keys[child] as string;
      index = child;
    }
    expiries[index] = lastExp;
    keys[index] = lastKey;
    return top;
  }
}
