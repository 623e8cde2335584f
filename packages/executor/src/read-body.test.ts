import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { ByteBudget } from "./byte-budget.js";
import { DeadlineSignal } from "./deadline.js";
import { readAnnouncedBody, readsWhole, type WholeBody } from "./read-body.js";

/** A body that hands over its bytes at once, as undici's does, and says whether it was read or destroyed. */
function wholeBody(bytes: Uint8Array): WholeBody & { taken: boolean } {
  const body = Object.assign(new Readable({ read() {} }), {
    taken: false,
    bytes: async () => {
      body.taken = true;
      return bytes;
    },
  });
  return body;
}

describe("readAnnouncedBody", () => {
  it("counts the announced length against the budget before reading, and reads the body in one piece", async () => {
    const budget = new ByteBudget(100, 40);
    const reader = budget.open(30);
    const body = wholeBody(new Uint8Array(Buffer.from("x".repeat(30))));
    expect(readsWhole(body)).toBe(true);
    expect(readsWhole(new Readable({ read() {} }))).toBe(false);
    const read = await readAnnouncedBody(body, 30, reader, new DeadlineSignal());
    expect(read).toEqual({ ok: true, bytes: Buffer.from("x".repeat(30)) });
    expect(budget.held).toBe(30);
    reader.close();
    expect(budget.held).toBe(0);
  });

  it("waits to read while the budget says wait, and reads once bytes come free", async () => {
    const budget = new ByteBudget(100, 40);
    const first = budget.open(40);
    const second = budget.open(40);
    const third = budget.open(40);
    expect(first.add(40)).toBe(true);
    expect(second.add(40)).toBe(true);
    const body = wholeBody(new Uint8Array(40));
    const read = readAnnouncedBody(body, 40, third, new DeadlineSignal());
    await new Promise((resolve) => setImmediate(resolve));
    expect(body.taken).toBe(false);
    first.close();
    await expect(read).resolves.toMatchObject({ ok: true });
    expect(body.taken).toBe(true);
  });

  it("destroys the body unread when the deadline ends the wait", async () => {
    const budget = new ByteBudget(100, 40);
    budget.open(40).add(40);
    budget.open(40).add(40);
    const body = wholeBody(new Uint8Array(40));
    const signal = new DeadlineSignal();
    const read = readAnnouncedBody(body, 40, budget.open(40), signal);
    signal.aborted = true;
    signal.reason = new Error("deadline");
    signal.emit("abort");
    await expect(read).rejects.toThrow("deadline");
    expect(body.taken).toBe(false);
    expect(body.destroyed).toBe(true);
  });

  it("refuses more bytes than were announced", async () => {
    const budget = new ByteBudget(100, 40);
    const read = await readAnnouncedBody(wholeBody(new Uint8Array(12)), 10, budget.open(10), new DeadlineSignal());
    expect(read).toEqual({ ok: false, bytesRead: 12 });
  });
});

describe("DeadlineSignal", () => {
  it("calls each abort listener once, and not one taken off", () => {
    const signal = new DeadlineSignal();
    const calls: string[] = [];
    const off = () => calls.push("off");
    signal.once("abort", () => calls.push("once"));
    signal.on("abort", off);
    signal.removeListener("abort", off);
    expect(signal.listenerCount("abort")).toBe(1);
    expect(signal.emit("abort")).toBe(true);
    expect(signal.emit("abort")).toBe(false);
    expect(calls).toEqual(["once"]);
  });
});
