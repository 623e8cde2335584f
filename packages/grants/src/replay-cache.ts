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
  private readonly entries = new Map<string, number>();
  // Min-heap of [exp, key] so expired keys are dropped in order, O(log n) each.
  private readonly heap: [number, string][] = [];

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
    this.entries.set(key, exp);
    this.push([exp, key]);
    return true;
  }

  private purge(now: number): void {
    const heap = this.heap;
    while (heap.length > 0 && (heap[0] as [number, string])[0] <= now) {
      const [, key] = this.pop();
      this.entries.delete(key);
    }
  }

  private push(entry: [number, string]): void {
    const heap = this.heap;
    heap.push(entry);
    let index = heap.length - 1;
    while (index > 0) {
      const parent = (index - 1) >> 1;
      const above = heap[parent] as [number, string];
      if (above[0] <= entry[0]) break;
      heap[index] = above;
      index = parent;
    }
    heap[index] = entry;
  }

  private pop(): [number, string] {
    const heap = this.heap;
    const top = heap[0] as [number, string];
    const last = heap.pop() as [number, string];
    if (heap.length === 0) return top;
    let index = 0;
    for (;;) {
      const left = 2 * index + 1;
      if (left >= heap.length) break;
      const right = left + 1;
      const leftEntry = heap[left] as [number, string];
      const rightEntry = heap[right];
      const child = rightEntry !== undefined && rightEntry[0] < leftEntry[0] ? right : left;
      const childEntry = heap[child] as [number, string];
      if (childEntry[0] >= last[0]) break;
      heap[index] = childEntry;
      index = child;
    }
    heap[index] = last;
    return top;
  }
}
