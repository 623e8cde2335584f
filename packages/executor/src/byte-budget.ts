import type { DeadlineSignal } from "./deadline.js";

/** One response being read against a {@link ByteBudget}. */
export interface BudgetReader {
  /** Counts `bytes` more held by this reader; false when it must {@link BudgetReader.wait} before reading on. */
  add(bytes: number): boolean;
  /** Resolves when this reader may read on; rejects with the signal's reason on abort. */
  wait(signal: DeadlineSignal): Promise<void>;
  /** Gives back every byte this reader holds; calling it again does nothing. */
  close(): void;
}

interface Reader {
  /** The most this reader will ever hold: its content-length, or the largest response read. */
  readonly limit: number;
  held: number;
  wake: (() => void) | undefined;
}

/**
 * Bytes of response body that concurrent runs hold at once. Each reader counts what it
 * holds as chunks arrive. The oldest few readers (as many as fit in the capacity, less
 * one response's worth) always read on, each up to its own limit; every other reader
 * reads only while what is held, plus what those oldest ones may still receive, fits
 * the capacity, and pauses otherwise (its socket is no longer read, so TCP holds the
 * server back) until bytes come free. The oldest never wait, so there is no deadlock;
 * what is held stays within the capacity, give or take the chunk each reader was
 * reading when it paused; and small bodies read on while big ones are being read.
 */
export class ByteBudget {
  #held = 0;
  readonly #readers: Reader[] = [];
  /** How many of the oldest readers always read on. */
  readonly #firstReaders: number;

  /** @param largest the largest body one reader may hold (maxResponseBytes), at most the capacity. */
  constructor(
    readonly capacity: number,
    largest: number,
  ) {
    if (largest > capacity) throw new RangeError("a budget must hold at least one whole response");
    this.#firstReaders = Math.max(1, Math.floor(capacity / largest) - 1);
  }

  /** What all open readers hold. */
  get held(): number {
    return this.#held;
  }

  /** Starts counting a body of at most `limit` bytes. */
  open(limit: number): BudgetReader {
    const reader: Reader = { limit, held: 0, wake: undefined };
    this.#readers.push(reader);
    return {
      add: (bytes) => {
        reader.held += bytes;
        this.#held += bytes;
        return this.#mayRead(reader);
      },
      wait: (signal) => this.#wait(reader, signal),
      close: () => this.#close(reader),
    };
  }

  #mayRead(reader: Reader): boolean {
    let promised = 0;
    for (let index = 0; index < this.#firstReaders && index < this.#readers.length; index += 1) {
      const first = this.#readers[index] as Reader;
      if (first === reader) return true;
      promised += Math.max(0, first.limit - first.held);
    }
    return this.#held + promised <= this.capacity;
  }

  #wait(reader: Reader, signal: DeadlineSignal): Promise<void> {
    if (this.#mayRead(reader)) return Promise.resolve();
    return new Promise((resolve, reject) => {
      if (signal.aborted) return reject(signal.reason);
      const onAbort = () => {
        reader.wake = undefined;
        reject(signal.reason);
      };
      reader.wake = () => {
        signal.off("abort", onAbort);
        resolve();
      };
      signal.once("abort", onAbort);
    });
  }

  #close(reader: Reader): void {
    const index = this.#readers.indexOf(reader);
    if (index === -1) return;
    this.#readers.splice(index, 1);
    this.#held -= reader.held;
    reader.held = 0;
    reader.wake = undefined;
    for (const waiting of this.#readers) {
      if (waiting.wake !== undefined && this.#mayRead(waiting)) {
        const wake = waiting.wake;
        waiting.wake = undefined;
        wake();
      }
    }
  }
}
