import { EventEmitter } from "node:events";
import { describe, expect, it } from "vitest";
import { closeOnSignals } from "./signals.js";

describe("closeOnSignals", () => {
  it.each(["SIGINT", "SIGTERM"] as const)("closes on %s, then exits 0", async (signal) => {
    const source = new EventEmitter();
    const exits: number[] = [];
    let closed = 0;
    closeOnSignals(
      source,
      async () => {
        closed += 1;
      },
      (code) => exits.push(code),
    );
    source.emit(signal);
    await new Promise((resolve) => setImmediate(resolve));
    expect(closed).toBe(1);
    expect(exits).toEqual([0]);
  });

  it("exits 1 at once on a second signal while closing", () => {
    const source = new EventEmitter();
    const exits: number[] = [];
    closeOnSignals(
      source,
      () => new Promise<void>(() => {}),
      (code) => exits.push(code),
    );
    source.emit("SIGTERM");
    source.emit("SIGINT");
    expect(exits).toEqual([1]);
  });

  it("exits 1 when closing fails", async () => {
    const source = new EventEmitter();
    const exits: number[] = [];
    closeOnSignals(
      source,
      () => Promise.reject(new Error("stuck")),
      (code) => exits.push(code),
    );
    source.emit("SIGINT");
    await new Promise((resolve) => setImmediate(resolve));
    expect(exits).toEqual([1]);
  });
});
