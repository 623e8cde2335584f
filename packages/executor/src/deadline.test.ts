import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { DeadlineExpired, DeadlineTimer } from "./deadline.js";

describe("DeadlineTimer", () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "performance"] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("ends each run at its own deadline, under one timer", () => {
    const timer = new DeadlineTimer(100);
    const first = timer.start();
    vi.advanceTimersByTime(30);
    const second = timer.start();
    vi.advanceTimersByTime(40);
    const third = timer.start();
    expect(vi.getTimerCount()).toBe(1);

    vi.advanceTimersByTime(29);
    expect([first.expired, second.expired, third.expired]).toEqual([false, false, false]);
    vi.advanceTimersByTime(1);
    expect([first.expired, second.expired, third.expired]).toEqual([true, false, false]);
    expect(first.signal.reason).toBeInstanceOf(DeadlineExpired);
    vi.advanceTimersByTime(29);
    expect(second.expired).toBe(false);
    vi.advanceTimersByTime(1);
    expect([second.expired, third.expired]).toEqual([true, false]);
    vi.advanceTimersByTime(40);
    expect(third.expired).toBe(true);
    expect(timer.waiting).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("emits abort once, with the run's timeout in its reason", () => {
    const timer = new DeadlineTimer(50);
    const deadline = timer.start();
    const onAbort = vi.fn();
    deadline.signal.on("abort", onAbort);
    vi.advanceTimersByTime(50);
    deadline.expire();
    expect(onAbort).toHaveBeenCalledTimes(1);
    expect((deadline.signal.reason as DeadlineExpired).code).toBe("ERR_DEADLINE_EXPIRED");
    expect((deadline.signal.reason as Error).message).toContain("50 ms");
  });

  it("never aborts a cleared run, and leaves nothing scheduled once its timer has passed", () => {
    const timer = new DeadlineTimer(100);
    const deadline = timer.start();
    expect(timer.scheduled).toEqual({ set: true, holdsProcess: true });
    deadline.clear();
    deadline.clear();
    expect(timer.waiting).toBe(0);
    // The spent timer no longer holds the process open.
    expect(timer.scheduled).toEqual({ set: true, holdsProcess: false });
    vi.advanceTimersByTime(1000);
    expect(deadline.expired).toBe(false);
    expect(timer.scheduled).toEqual({ set: false, holdsProcess: false });
    expect(vi.getTimerCount()).toBe(0);
  });

  it("skips runs cleared ahead of a waiting one and sets its timer again for that one", () => {
    const timer = new DeadlineTimer(100);
    const first = timer.start();
    vi.advanceTimersByTime(60);
    const second = timer.start();
    const third = timer.start();
    first.clear();
    third.clear();
    expect(timer.scheduled.holdsProcess).toBe(true);
    vi.advanceTimersByTime(40);
    expect(second.expired).toBe(false);
    expect(vi.getTimerCount()).toBe(1);
    vi.advanceTimersByTime(59);
    expect(second.expired).toBe(false);
    vi.advanceTimersByTime(1);
    expect([first.expired, second.expired, third.expired]).toEqual([false, true, false]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("holds the process again when a run starts while the spent timer waits", () => {
    const timer = new DeadlineTimer(100);
    timer.start().clear();
    vi.advanceTimersByTime(50);
    const next = timer.start();
    expect(timer.scheduled).toEqual({ set: true, holdsProcess: true });
    expect(vi.getTimerCount()).toBe(1);
    vi.advanceTimersByTime(50);
    expect(next.expired).toBe(false);
    vi.advanceTimersByTime(50);
    expect(next.expired).toBe(true);
  });

  it("times out a run started from an abort listener at its own deadline, with one timer", () => {
    const timer = new DeadlineTimer(100);
    const first = timer.start();
    let started: ReturnType<DeadlineTimer["start"]> | undefined;
    first.signal.on("abort", () => {
      started = timer.start();
    });
    vi.advanceTimersByTime(100);
    expect(first.expired).toBe(true);
    expect(vi.getTimerCount()).toBe(1);
    vi.advanceTimersByTime(99);
    expect(started?.expired).toBe(false);
    vi.advanceTimersByTime(1);
    expect(started?.expired).toBe(true);
  });

  it("counts what is left of a deadline, at least 1 ms, and sleeps within it", async () => {
    const timer = new DeadlineTimer(100);
    const deadline = timer.start();
    vi.advanceTimersByTime(40);
    expect(deadline.remaining()).toBe(60);
    const slept = deadline.sleep(20);
    vi.advanceTimersByTime(20);
    await expect(slept).resolves.toBeUndefined();
    const cut = deadline.sleep(1000);
    vi.advanceTimersByTime(40);
    await expect(cut).rejects.toBeInstanceOf(DeadlineExpired);
    expect(deadline.remaining()).toBe(1);
  });
});
