import { describe, expect, it } from "vitest";
import { dotPathProblem, errorMarker, hasErrorMarker, KEY_PATTERN, markedError, OP_ID_PATTERN, valueAtDotPath } from "./index.js";

class ExampleError extends markedError("ExampleError") {
  readonly code = "example" as const;
  constructor(message: string) {
    super(message, { cause: "why" });
  }
}

describe("markedError: one base for every error class of ours", () => {
  it("names the class, marks each instance with Symbol.for('eleven-integrations.error.<Name>') and keeps message and cause", () => {
    const error = new ExampleError("went wrong");
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe("ExampleError");
    expect(error.message).toBe("went wrong");
    expect(error.cause).toBe("why");
    expect(error.code).toBe("example");
    expect(Symbol.for("eleven-integrations.error.ExampleError") in error).toBe(true);
    expect(errorMarker("ExampleError")).toBe(Symbol.for("eleven-integrations.error.ExampleError"));
  });

  it("recognises an instance from another copy of the package (a class made again with the same name), and nothing else", () => {
    const OtherCopy = markedError("ExampleError");
    expect(ExampleError.isInstance(new OtherCopy("from elsewhere"))).toBe(true);
    expect(ExampleError.isInstance(new ExampleError("here"))).toBe(true);
    expect(ExampleError.isInstance(new (markedError("OtherError"))("no"))).toBe(false);
    expect(ExampleError.isInstance(new Error("plain"))).toBe(false);
    expect(ExampleError.isInstance(null)).toBe(false);
    expect(ExampleError.isInstance("ExampleError")).toBe(false);
    expect(hasErrorMarker(new OtherCopy("x"), "ExampleError")).toBe(true);
    expect(hasErrorMarker(new OtherCopy("x"), "OtherError")).toBe(false);
  });
});

describe("OP_ID_PATTERN and KEY_PATTERN", () => {
  it("take namespace.verb op ids only", () => {
    for (const id of ["issues.create", "repos.list_for_user", "a1.b2"]) expect(OP_ID_PATTERN.test(id), id).toBe(true);
    for (const id of ["issues", "Issues.create", "1x.create", "issues.create.now", "issues._x", "issues.create\n", ""])
      expect(OP_ID_PATTERN.test(id), id).toBe(false);
  });

  it("take a 32-byte unpadded base64url key in its one canonical spelling", () => {
    const key = Buffer.alloc(32, 0xab).toString("base64url");
    expect(KEY_PATTERN.test(key)).toBe(true);
    // The last character carries 4 bits: a spelling with the 2 spare bits set decodes to the same bytes, and is refused.
    expect(KEY_PATTERN.test(`${key.slice(0, 42)}x`)).toBe(false);
    expect(KEY_PATTERN.test(Buffer.alloc(31).toString("base64url"))).toBe(false);
    expect(KEY_PATTERN.test(`${key}=`)).toBe(false);
    expect(KEY_PATTERN.test(Buffer.alloc(32, 0xab).toString("base64"))).toBe(false);
  });
});

describe("valueAtDotPath", () => {
  const body = { data: { token: { access_token: "t" } }, errors: [{ message: "first" }, { message: "second", code: "B" }], list: [] as unknown[] };

  it("reads own properties along the path, never the prototype chain", () => {
    expect(valueAtDotPath(body, ["data", "token", "access_token"])).toBe("t");
    expect(valueAtDotPath(body, ["data", "missing"])).toBeUndefined();
    expect(valueAtDotPath({}, ["toString"])).toBeUndefined();
    expect(valueAtDotPath({ a: "text" }, ["a", "length"])).toBeUndefined();
    expect(valueAtDotPath(body, [])).toBe(body);
  });

  it("stops at an array unless asked to look through it: by index, or the first item that has the rest", () => {
    expect(valueAtDotPath(body, ["errors", "message"])).toBeUndefined();
    expect(valueAtDotPath(body, ["errors", "message"], { arrays: "first" })).toBe("first");
    expect(valueAtDotPath(body, ["errors", "1", "message"], { arrays: "first" })).toBe("second");
    expect(valueAtDotPath(body, ["errors", "code"], { arrays: "first" })).toBe("B");
    expect(valueAtDotPath(body, ["errors", "code"], { arrays: "first", maxScanned: 1 })).toBeUndefined();
    expect(valueAtDotPath(body, ["list", "x"], { arrays: "first" })).toBeUndefined();
  });

  it("walks only paths dotPathProblem accepts in manifests", () => {
    expect(dotPathProblem("errors.message")).toBeUndefined();
    expect(dotPathProblem("__proto__.x")).toMatch(/not allowed/);
  });
});
