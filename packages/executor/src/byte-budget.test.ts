import { describe, expect, it } from "vitest";
import { ByteBudget } from "./byte-budget.js";

const never = new AbortController().signal;

describe("ByteBudget", () => {
  it("grants at once while bytes are free, and gives them back once", async () => {
    const budget = new ByteBudget(100);
    const release = await budget.reserve(60, never);
    expect(budget.available).toBe(40);
    release();
    release();
    expect(budget.available).toBe(100);
  });

  it("makes later reservations wait, first come first served, until bytes come free", async () => {
    const budget = new ByteBudget(100);
    const first = await budget.reserve(80, never);
    const order: string[] = [];
    const second = budget.reserve(50, never).then((release) => (order.push("second"), release));
    const third = budget.reserve(10, never).then((release) => (order.push("third"), release));
    await new Promise((resolve) => setImmediate(resolve));
    expect(order).toEqual([]);
    first();
    (await second)();
    (await third)();
    expect(order).toEqual(["second", "third"]);
    expect(budget.available).toBe(100);
  });

  it("caps a reservation at the capacity, so a single run can always proceed", async () => {
    const budget = new ByteBudget(100);
    (await budget.reserve(1_000, never))();
    expect(budget.available).toBe(100);
  });

  it("rejects a waiting reservation when its signal aborts, and lets the next one in", async () => {
    const budget = new ByteBudget(100);
    const held = await budget.reserve(90, never);
    const controller = new AbortController();
    const waiting = budget.reserve(50, controller.signal);
    const small = budget.reserve(10, never);
    controller.abort(new Error("deadline"));
    await expect(waiting).rejects.toThrow("deadline");
    (await small)();
    held();
    expect(budget.available).toBe(100);
  });
});
