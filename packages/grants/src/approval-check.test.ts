import { describe, expect, it } from "vitest";
import { approvalCoversOp, checkApprovalArgs } from "./approval-check.js";
import type { ApprovalArgs, ApprovalBudget } from "./approval-payload.js";

const DAY: ApprovalBudget = { runs: 20, per_seconds: 86_400 };

function approval(args: ApprovalArgs, budget: ApprovalBudget = DAY) {
  return { args, budget };
}

describe("checkApprovalArgs", () => {
  const standup = approval({ channel: { eq: "#standup" }, text: "any" });

  it("passes a call inside the room, with an `any` arg present or left out", () => {
    expect(checkApprovalArgs(standup, { channel: "#standup", text: "Done: 3 tickets" })).toBe(true);
    expect(checkApprovalArgs(standup, { channel: "#standup" })).toBe(true);
  });

  it("attack: the bot changes a constrained arg, or adds one the member never named", () => {
    expect(checkApprovalArgs(standup, { channel: "#general", text: "hi" })).toBe(false);
    expect(checkApprovalArgs(standup, { channel: "#standup ", text: "hi" })).toBe(false);
    expect(checkApprovalArgs(standup, { channel: "#ѕtandup", text: "hi" })).toBe(false);
    expect(checkApprovalArgs(standup, { channel: "#standup", text: "hi", thread_ts: "1.2" })).toBe(false);
  });

  it("attack: a constrained arg left out, or given as something other than a string", () => {
    expect(checkApprovalArgs(standup, { text: "hi" })).toBe(false);
    expect(checkApprovalArgs(standup, { channel: ["#standup"] })).toBe(false);
    expect(checkApprovalArgs(approval({ kind: { in: ["bug", "task"] } }), {})).toBe(false);
    expect(checkApprovalArgs(approval({ kind: { in: ["bug", "task"] } }), { kind: "epic" })).toBe(false);
    expect(checkApprovalArgs(approval({ kind: { in: ["bug", "task"] } }), { kind: "task" })).toBe(true);
  });

  it("attack: an inherited arg name does not count as constrained", () => {
    const args = Object.create({ channel: "#standup" }) as Record<string, string>;
    expect(checkApprovalArgs(standup, args)).toBe(false);
    expect(checkApprovalArgs(standup, { channel: "#standup", toString: "x" })).toBe(false);
  });

  it("compares numeric constraints on the arg read as a finite decimal number", () => {
    const bounded = approval({ amount: { min: 1, max: 100 } });
    expect(checkApprovalArgs(bounded, { amount: "1" })).toBe(true);
    expect(checkApprovalArgs(bounded, { amount: "100" })).toBe(true);
    expect(checkApprovalArgs(bounded, { amount: "99.5" })).toBe(true);
    expect(checkApprovalArgs(bounded, { amount: "1e2" })).toBe(true);
    expect(checkApprovalArgs(bounded, { amount: "100.01" })).toBe(false);
    expect(checkApprovalArgs(bounded, { amount: "0" })).toBe(false);
    expect(checkApprovalArgs(approval({ amount: { max: 10 } }), { amount: "-5" })).toBe(true);
    expect(checkApprovalArgs(approval({ amount: { min: 10 } }), { amount: "9" })).toBe(false);
  });

  it("attack: a non-numeric value never passes a numeric bound (blank, hex, Infinity, NaN, spaces)", () => {
    const capped = approval({ amount: { max: 100 } });
    for (const value of ["", " ", " 5", "5 ", "0x10", "Infinity", "-Infinity", "NaN", "1e999", "5,0", "+5", "05", "1_000", "٥"]) {
      expect(checkApprovalArgs(capped, { amount: value }), value).toBe(false);
    }
    expect(checkApprovalArgs(capped, { amount: 5 })).toBe(false);
  });

  it("attack: a negative amount under a summed budget would give budget back, so it fails", () => {
    const summed = approval({ amount: { max: 100 } }, { runs: 5, per_seconds: 3600, sum: { arg: "amount", max: 500 } });
    expect(checkApprovalArgs(summed, { amount: "40" })).toBe(true);
    expect(checkApprovalArgs(summed, { amount: "-40" })).toBe(false);
    const summedAny = approval({ amount: "any" }, { runs: 5, per_seconds: 3600, sum: { arg: "amount", max: 500 } });
    expect(checkApprovalArgs(summedAny, {})).toBe(false);
    expect(checkApprovalArgs(summedAny, { amount: "ten" })).toBe(false);
    expect(checkApprovalArgs(summedAny, { amount: "10" })).toBe(true);
  });
});

describe("approvalCoversOp", () => {
  const covered = { integration: "slack", manifest_hash: "a".repeat(64), op: "chat.post" };

  it("is true only for the same integration, manifest hash and op", () => {
    expect(approvalCoversOp(covered, { integration: "slack", manifestHash: "a".repeat(64), op: "chat.post" })).toBe(true);
    expect(approvalCoversOp(covered, { integration: "slack", manifestHash: "b".repeat(64), op: "chat.post" })).toBe(false);
    expect(approvalCoversOp(covered, { integration: "slack", manifestHash: "a".repeat(64), op: "chat.delete" })).toBe(false);
    expect(approvalCoversOp(covered, { integration: "discord", manifestHash: "a".repeat(64), op: "chat.post" })).toBe(false);
  });
});
