import { EventEmitter } from "node:events";

/**
 * The abort signal of a run, in the EventEmitter form undici's `request()` accepts
 * (`aborted`, `reason` and an `abort` event). An `AbortController` does the same job but
 * costs a measurable share of a fast request; this one is a plain emitter.
 */
export class DeadlineSignal extends EventEmitter {
  aborted = false;
  reason: unknown = undefined;
}

/** The one timer of a run: every attempt, wait and read happens inside it. */
export class Deadline {
  readonly signal = new DeadlineSignal();
  readonly #end: number;
  readonly #timer: NodeJS.Timeout;

  constructor(readonly timeoutMs: number) {
    this.#end = performance.now() + timeoutMs;
    this.#timer = setTimeout(() => {
      this.signal.aborted = true;
      this.signal.reason = new DeadlineExpired(timeoutMs);
      this.signal.emit("abort");
    }, timeoutMs);
  }

  get expired(): boolean {
    return this.signal.aborted;
  }

  /** Milliseconds left, at least 1 so it can be handed to a timeout option. */
  remaining(): number {
    return Math.max(1, Math.ceil(this.#end - performance.now()));
  }

  /** Waits `ms`, or rejects when the deadline passes first. */
  sleep(ms: number): Promise<void> {
    return new Promise((resolve, reject) => {
      if (this.signal.aborted) return reject(this.signal.reason);
      const onAbort = () => {
        clearTimeout(timer);
        reject(this.signal.reason);
      };
      const timer = setTimeout(() => {
        this.signal.off("abort", onAbort);
        resolve();
      }, ms);
      this.signal.once("abort", onAbort);
    });
  }

  clear(): void {
    clearTimeout(this.#timer);
  }
}

export class DeadlineExpired extends Error {
  readonly code = "ERR_DEADLINE_EXPIRED" as const;
  constructor(timeoutMs: number) {
    super(`the run did not finish within ${timeoutMs} ms`);
    this.name = "DeadlineExpired";
  }
}
