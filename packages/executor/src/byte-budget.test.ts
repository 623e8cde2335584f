import { describe, expect, it } from "vitest";
import { ByteBudget } from "./byte-budget.js";
import { DeadlineSignal } from "./deadline.js";

const never = new DeadlineSignal();
const tick = () => new Promise((resolve) => setImmediate(resolve));

describe("ByteBudget", () => {
  it("lets readers read on while what they hold fits, and gives it all back on close", () => {
    const budget = new ByteBudget(100, 40);
    const reader = budget.open(40);
    expect(reader.add(30)).toBe(true);
    expect(budget.held).toBe(30);
    reader.close();
    reader.close();
    expect(budget.held).toBe(0);
  });

  it("always lets the oldest readers read on, up to their own limit, so nothing deadlocks", () => {
    const budget = new ByteBudget(100, 40);
    const first = budget.open(40);
    const second = budget.open(40);
    expect(second.add(90)).toBe(false);
    expect(first.add(40)).toBe(true);
  });

  it("pauses the others while what is held plus what the oldest may still receive passes the capacity", async () => {
    const budget = new ByteBudget(100, 40);
    const first = budget.open(40);
    expect(first.add(1)).toBe(true);
    const small = budget.open(40);
    expect(small.add(5)).toBe(true);
    const big = budget.open(40);
    expect(big.add(60)).toBe(false);
    let woke = false;
    void big.wait(never).then(() => (woke = true));
    await tick();
    expect(woke).toBe(false);
    first.close();
    await tick();
    expect(woke).toBe(true);
    small.close();
    big.close();
    expect(budget.held).toBe(0);
  });

  it("counts a known content-length as the most a reader will receive", () => {
    const budget = new ByteBudget(100, 40);
    budget.open(2).add(1);
    budget.open(2).add(1);
    expect(budget.open(40).add(90)).toBe(true);
  });

  it("rejects a waiting reader when its signal aborts", async () => {
    const budget = new ByteBudget(40, 40);
    budget.open(40).add(10);
    const waiting = budget.open(40);
    expect(waiting.add(35)).toBe(false);
    const signal = new DeadlineSignal();
    const wait = waiting.wait(signal);
    signal.aborted = true;
    signal.reason = new Error("deadline");
    signal.emit("abort");
    await expect(wait).rejects.toThrow("deadline");
  });

  it("refuses a capacity that cannot hold one whole response", () => {
    expect(() => new ByteBudget(10, 20)).toThrow(RangeError);
  });
});
