/** The one timer of a run: every attempt, wait and read happens inside it. */
export class Deadline {
  readonly signal: AbortSignal;
  readonly #controller = new AbortController();
  readonly #end: number;
  readonly #timer: NodeJS.Timeout;

  constructor(readonly timeoutMs: number) {
    this.signal = this.#controller.signal;
    this.#end = performance.now() + timeoutMs;
    this.#timer = setTimeout(() => this.#controller.abort(new DeadlineExpired(timeoutMs)), timeoutMs);
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
        this.signal.removeEventListener("abort", onAbort);
        resolve();
      }, ms);
      this.signal.addEventListener("abort", onAbort, { once: true });
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
