/** Gives back what a reservation took; calling it twice gives back once. */
export type Release = () => void;

interface Waiter {
  readonly bytes: number;
  readonly grant: (release: Release) => void;
}

/**
 * Bytes of response body that concurrent runs may hold at once. A run reserves what it
 * may need before it reads and waits in turn (first come, first served) while the budget
 * is spent, so memory stays bounded however many runs are in flight, and a reservation
 * made whole up front can never deadlock against another.
 */
export class ByteBudget {
  #available: number;
  readonly #waiters: Waiter[] = [];

  constructor(readonly capacity: number) {
    this.#available = capacity;
  }

  get available(): number {
    return this.#available;
  }

  /** Reserves `bytes` (at most the capacity) now or when they come free; rejects with the signal's reason on abort. */
  reserve(bytes: number, signal: AbortSignal): Promise<Release> {
    const wanted = Math.min(Math.max(0, bytes), this.capacity);
    if (this.#waiters.length === 0 && wanted <= this.#available) return Promise.resolve(this.#take(wanted));
    return new Promise((resolve, reject) => {
      if (signal.aborted) return reject(signal.reason);
      const waiter: Waiter = {
        bytes: wanted,
        grant: (release) => {
          signal.removeEventListener("abort", onAbort);
          resolve(release);
        },
      };
      const onAbort = () => {
        const index = this.#waiters.indexOf(waiter);
        if (index !== -1) this.#waiters.splice(index, 1);
        this.#drain();
        reject(signal.reason);
      };
      signal.addEventListener("abort", onAbort, { once: true });
      this.#waiters.push(waiter);
    });
  }

  #take(bytes: number): Release {
    this.#available -= bytes;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#available += bytes;
      this.#drain();
    };
  }

  #drain(): void {
    while (this.#waiters.length > 0) {
      const head = this.#waiters[0] as Waiter;
      if (head.bytes > this.#available) return;
      this.#waiters.shift();
      head.grant(this.#take(head.bytes));
    }
  }
}
