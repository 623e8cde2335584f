import type { CompiledOperation } from "@eleven-integrations/loader";
import { describe, expect, it } from "vitest";
import { checkArgs } from "./check-args.js";
import { testRegistry } from "./test-support/test-registry.js";

const registry = testRegistry();
const operation = (id: string) => registry.operation("example", id) as CompiledOperation;
const issuesGet = operation("issues.get");
const valid = { owner: "octocat", repo: "Hello-World", number: "1347" };

function problems(op: CompiledOperation, args: unknown): string {
  const result = checkArgs(op, args);
  if (result.ok) throw new Error("expected the args to be refused");
  return result.problems.map((problem) => `${problem.arg}: ${problem.message}`).join("\n");
}

describe("checkArgs", () => {
  it("accepts declared string values and returns them on a null-prototype object", () => {
    const result = checkArgs(issuesGet, valid);
    expect(result.ok).toBe(true);
    if (result.ok) {
      expect({ ...result.values }).toEqual(valid);
      expect(Object.getPrototypeOf(result.values)).toBeNull();
    }
  });

  it.each([
    ["a number", { ...valid, number: 1347 }, /number: must be a string/],
    ["null", { ...valid, owner: null }, /owner: must be a string/],
    ["an array", { ...valid, repo: ["a"] }, /repo: must be a string/],
    ["an object", { ...valid, repo: { toString: (): string => "x" } }, /repo: must be a string/],
  ])("refuses a non-string value: %s", (_, args, expected) => {
    expect(problems(issuesGet, args)).toMatch(expected);
  });

  it("refuses unknown args, a __proto__ key included", () => {
    expect(problems(issuesGet, { ...valid, extra: "x" })).toMatch(/extra: is not an argument/);
    expect(problems(issuesGet, JSON.parse(`{"owner":"a","repo":"b","number":"1","__proto__":"x"}`))).toMatch(/__proto__: is not an argument/);
  });

  it("refuses missing required args, each named", () => {
    expect(problems(issuesGet, { owner: "octocat" })).toBe("repo: is required\nnumber: is required");
    expect(problems(issuesGet, undefined)).toMatch(/owner: is required/);
  });

  it("refuses args that are not an object", () => {
    expect(problems(issuesGet, "owner=octocat")).toMatch(/args must be an object/);
    expect(problems(issuesGet, [valid])).toMatch(/args must be an object/);
  });

  it("counts max_length in code points, not UTF-16 units", () => {
    expect(checkArgs(issuesGet, { ...valid, owner: "😀".repeat(39) }).ok).toBe(true);
    expect(problems(issuesGet, { ...valid, owner: "😀".repeat(40) })).toMatch(/owner: must be at most 39 characters/);
    expect(problems(issuesGet, { ...valid, owner: "a".repeat(40) })).toMatch(/owner: must be at most 39 characters/);
  });

  it("refuses a pattern miss, matched against the whole value", () => {
    expect(problems(issuesGet, { ...valid, number: "12a" })).toMatch(/number: does not match/);
    expect(problems(issuesGet, { ...valid, number: "1\n2" })).toMatch(/number: does not match/);
    expect(problems(issuesGet, { ...valid, number: "1234567890" })).toMatch(/number: does not match/);
  });

  it("refuses an enum miss", () => {
    expect(problems(operation("items.search"), { q: "x", sort: "popular" })).toMatch(/sort: must be one of "created", "updated"/);
    expect(checkArgs(operation("items.search"), { q: "x", sort: "updated" }).ok).toBe(true);
  });

  it("refuses lone surrogates in any value, body values included", () => {
    expect(problems(operation("items.create"), { title: "a\uD800b" })).toMatch(/title: must not hold a lone surrogate/);
    expect(checkArgs(operation("items.create"), { title: "line one\nline two\t\u202e" }).ok).toBe(true);
  });

  it("never echoes a value in a problem", () => {
    expect(problems(issuesGet, { ...valid, number: "secret-value" })).not.toContain("secret-value");
  });
});
