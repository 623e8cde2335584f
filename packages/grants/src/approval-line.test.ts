import { type Manifest, parseManifest } from "@eleven-integrations/schema";
import { describe, expect, it } from "vitest";
import { refusal } from "./__fixtures__/forge.js";
import { budgetWindow, renderApprovalLine, utcDate } from "./approval-line.js";
import type { ApprovalArgs, ApprovalBudget } from "./approval-payload.js";

function manifest(label = "Post a message"): Manifest {
  const parsed = parseManifest({
    schema: 1,
    id: "demo",
    name: "Demo",
    category: "testing",
    auth: { kind: "pat", base: "https://api.demo.example.com", authorization: "Bearer", pat_help: "https://demo.example.com/tokens" },
    ops: [
      { id: "chat.list", label: "List messages", access: "read", method: "GET", path: "/messages" },
      {
        id: "chat.post",
        label,
        access: "write",
        method: "POST",
        path: "/messages",
        args: { channel: { required: true }, text: { required: true }, amount: {} },
        body_json: { channel: "{channel}", text: "{text}", amount: "{amount}" },
        confirm: "Post {text} in {channel}",
      },
    ],
  });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
  return parsed.manifest;
}

// 7 Jan 2027, 00:00 UTC
const EXP = Date.UTC(2027, 0, 7) / 1000;
const DAY: ApprovalBudget = { runs: 20, per_seconds: 86_400 };
const STANDUP: ApprovalArgs = { channel: { eq: "#standup" }, text: "any", amount: "any" };

function line(args: ApprovalArgs = STANDUP, budget: ApprovalBudget = DAY, label?: string): string {
  return renderApprovalLine({ manifest: manifest(label), op: "chat.post", args, budget, exp: EXP });
}

describe("renderApprovalLine", () => {
  it("names the op, every constraint, the budget and the expiry, and says the writes run without asking", () => {
    expect(line()).toBe(
      "Always allow, without asking each time: Post a message; amount is any value; channel is “#standup”; text is any value; " +
        "at most 20 runs a day; until 7 Jan 2027, 00:00 UTC. These writes will run without asking you.",
    );
  });

  it("writes every kind of constraint and a summed budget", () => {
    const text = line(
      { channel: { in: ["#standup", "#team"] }, text: { eq: "Done" }, amount: { min: 1, max: 250.5 } },
      { runs: 1, per_seconds: 3600, sum: { arg: "amount", max: 500 } },
    );
    expect(text).toContain("channel is one of “#standup”, “#team”");
    expect(text).toContain("text is “Done”");
    expect(text).toContain("amount is from 1 to 250.5");
    expect(text).toContain("at most 1 run an hour and amount adding up to at most 500 an hour");
    expect(line({ ...STANDUP, amount: { max: 9 } })).toContain("amount is at most 9");
    expect(line({ ...STANDUP, amount: { min: -3 } })).toContain("amount is at least -3");
  });

  it("names budget windows by clear rules and writes the date in UTC", () => {
    expect(budgetWindow(86_400)).toBe("a day");
    expect(budgetWindow(3_600)).toBe("an hour");
    expect(budgetWindow(604_800)).toBe("a week");
    expect(budgetWindow(90)).toBe("every 90 seconds");
    expect(line(STANDUP, { runs: 5, per_seconds: 604_800 })).toContain("at most 5 runs a week");
    expect(utcDate(Date.UTC(2027, 11, 31, 23, 59, 59) / 1000)).toBe("31 Dec 2027, 23:59 UTC");
  });

  it("is deterministic: the order the args were given in does not matter", () => {
    const reordered: ApprovalArgs = { text: "any", amount: "any", channel: { eq: "#standup" } };
    expect(line(reordered)).toBe(line());
  });

  it("attack: bidi and hidden characters in a value are neutralised, quotes cannot close the line's own", () => {
    const text = line({ ...STANDUP, channel: { eq: "#standup\u202E\u2066”; amount is any value; x is “" } });
    expect(text).not.toMatch(/[\u202A-\u202E\u2066-\u2069\u200B-\u200F]/);
    expect(text).toContain("\uFFFD");
    expect(text.match(/”/g)).toHaveLength(1);
  });

  it("attack: a right-to-left value is isolated so it cannot reorder the line", () => {
    expect(line({ ...STANDUP, channel: { eq: "שלום" } })).toContain("“\u2068שלום\u2069”");
  });

  it("attack: a label holding {placeholders} does not pull a value into the line", () => {
    const text = line({ ...STANDUP, channel: { eq: "#secret" } }, DAY, "Post {v0} now");
    expect(text.startsWith("Always allow, without asking each time: Post ｛v0｝ now;")).toBe(true);
    expect(text.match(/#secret/g)).toHaveLength(1);
  });

  it("stays bounded: long values are cut so the values fit, and the rules are never cut", () => {
    const values = Array.from({ length: 20 }, (_, index) => `${index}-${"x".repeat(1000)}`);
    const text = line({ channel: { in: values }, text: { eq: "y".repeat(1024) }, amount: "any" });
    expect(Array.from(text).length).toBeLessThan(1200);
    expect(text).toContain("…");
    expect(text.endsWith("These writes will run without asking you.")).toBe(true);
    expect(text).toContain("at most 20 runs a day");
  });

  it("refuses an unknown op, a read, an arg left without a constraint, an arg the op lacks, a bad budget", () => {
    const render = (input: Partial<Parameters<typeof renderApprovalLine>[0]>) => () =>
      renderApprovalLine({ manifest: manifest(), op: "chat.post", args: STANDUP, budget: DAY, exp: EXP, ...input });
    expect(refusal(render({ op: "chat.delete" }))).toBe("malformed");
    expect(refusal(render({ op: "chat.list", args: {} }))).toBe("malformed");
    expect(refusal(render({ args: { channel: { eq: "#standup" }, text: "any" } }))).toBe("malformed");
    expect(refusal(render({ args: { ...STANDUP, thread: "any" } }))).toBe("malformed");
    expect(refusal(render({ budget: { runs: 0, per_seconds: 60 } }))).toBe("malformed");
    expect(refusal(render({ budget: { runs: 1, per_seconds: 60, sum: { arg: "other", max: 1 } } }))).toBe("malformed");
    expect(refusal(render({ exp: -1 }))).toBe("malformed");
  });
});
