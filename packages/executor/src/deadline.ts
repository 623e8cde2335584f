type AbortListener = () => void;

/**
 * The abort signal of a run, in the EventEmitter form undici's `request()` accepts
 * (`aborted`, `reason`, and `once`/`removeListener` of an `abort` event). An
 * `AbortController`, or an EventEmitter, does the same job but costs a measurable share of
 * a fast request; this one holds its few listeners in an array. It aborts once: every
 * listener is called at most once, as `once` would.
 */
export class DeadlineSignal {
  aborted = false;
  reason: unknown = undefined;
  #listeners: AbortListener[] = [];

  on(event: "abort", listener: AbortListener): this {
    if (event === "abort") this.#listeners.push(listener);
    return this;
  }

  once(event: "abort", listener: AbortListener): this {
    return this.on(event, listener);
  }

  addListener(event: "abort", listener: AbortListener): this {
    return this.on(event, listener);
  }

  off(event: "abort", listener: AbortListener): this {
    const index = event === "abort" ? this.#listeners.lastIndexOf(listener) : -1;
    if (index !== -1) this.#listeners.splice(index, 1);
    return this;
  }

  removeListener(event: "abort", listener: AbortListener): this {
    return this.off(event, listener);
  }

  listenerCount(event: "abort"): number {
    return event === "abort" ? this.#listeners.length : 0;
  }

  /** Calls each listener once (set `aborted` and `reason` first); true when there was one. */
  emit(event: "abort"): boolean {
    if (event !== "abort" || this.#listeners.length === 0) return false;
    const listeners = this.#listeners;
    this.#listeners = [];
    for (const listener of listeners) listener();
    return true;
  }
}

/**
 * The deadlines of one executor's runs, all under one timer. Every run has the same
 * `timeoutMs`, so runs end in the order they start: they wait in a list, oldest first,
 * and the one timer is set for the oldest. A run that finishes leaves the list without
 * touching the timer; when the timer fires it ends every run whose time is up and is
 * set again for the oldest left, or not at all when none is left. While no run waits
 * the timer does not hold the process open (it is unref'd).
 */
export class DeadlineTimer {
  #first: Deadline | undefined = undefined;
  #last: Deadline | undefined = undefined;
  #timer: NodeJS.Timeout | undefined = undefined;
  #waiting = 0;

  constructor(readonly timeoutMs: number) {}

  /** Runs whose deadline is still counting. */
  get waiting(): number {
    return this.#waiting;
  }

  /** Whether a timer is set; while no run waits it does not keep the process alive. */
  get scheduled(): { readonly set: boolean; readonly holdsProcess: boolean } {
    return { set: this.#timer !== undefined, holdsProcess: this.#timer?.hasRef() === true };
  }

  /** A deadline `timeoutMs` from now; `clear()` it when the run ends. */
  start(): Deadline {
    const deadline = new Deadline(this, performance.now() + this.timeoutMs);
    deadline.previous = this.#last;
    if (this.#last === undefined) this.#first = deadline;
    else this.#last.next = deadline;
    this.#last = deadline;
    this.#waiting += 1;
    // The timer is set for an earlier end than this one (ends only grow), or is set now.
    if (this.#timer === undefined) this.#timer = setTimeout(this.#fire, this.timeoutMs);
    else if (this.#waiting === 1) this.#timer.ref();
    return deadline;
  }

  /** Takes a deadline out of the list; a second call does nothing. */
  remove(deadline: Deadline): void {
    if (!deadline.waiting) return;
    deadline.waiting = false;
    const { previous, next } = deadline;
    if (previous === undefined) this.#first = next;
    else previous.next = next;
    if (next === undefined) this.#last = previous;
    else next.previous = previous;
    deadline.previous = undefined;
    deadline.next = undefined;
    this.#waiting -= 1;
    if (this.#waiting === 0) this.#timer?.unref();
  }

  readonly #fire = (): void => {
    // #timer stays the spent timer until the end, so a run started by an abort listener does not set a second one.
    const now = performance.now();
    while (this.#first !== undefined && this.#first.end <= now) {
      const due = this.#first;
      this.remove(due);
      due.expire();
    }
    // A timer may fire a little before performance.now() reaches its end: the rest is waited again.
    this.#timer = this.#first === undefined ? undefined : setTimeout(this.#fire, Math.max(1, Math.ceil(this.#first.end - now)));
  };
}

/** The deadline of one run: every attempt, wait and read happens inside it. */
export class Deadline {
  readonly signal = new DeadlineSignal();
  /** Its place in its timer's list. */
  previous: Deadline | undefined = undefined;
  next: Deadline | undefined = undefined;
  waiting = true;

  constructor(
    readonly timer: DeadlineTimer,
    /** When it ends, on `performance.now()`'s clock. */
    readonly end: number,
  ) {}

  get timeoutMs(): number {
    return this.timer.timeoutMs;
  }

  get expired(): boolean {
    return this.signal.aborted;
  }

  /** Milliseconds left, at least 1 so it can be handed to a timeout option. */
  remaining(): number {
    return Math.max(1, Math.ceil(this.end - performance.now()));
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

  /** Aborts the run: called by its timer when its time is up. */
  expire(): void {
    if (this.signal.aborted) return;
    this.signal.aborted = true;
    this.signal.reason = new DeadlineExpired(this.timeoutMs);
    this.signal.emit("abort");
  }

  /** The run is over: it no longer waits for its timer. */
  clear(): void {
    this.timer.remove(this);
  }
}

export class DeadlineExpired extends Error {
  readonly code = "ERR_DEADLINE_EXPIRED" as const;
  constructor(timeoutMs: number) {
    super(`the run did not finish within ${timeoutMs} ms`);
    this.name = "DeadlineExpired";
  }
}
