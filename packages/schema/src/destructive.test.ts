import { describe, expect, it } from "vitest";
import { manifestJsonSchema } from "./json-schema.js";
import { parseManifest } from "./parse-manifest.js";

function manifest(op: Record<string, unknown>): unknown {
  return {
    schema: 1,
    id: "demo",
    name: "Demo",
    category: "testing",
    auth: { kind: "pat", base: "https://api.demo.example.com", authorization: "Bearer", pat_help: "https://demo.example.com/tokens" },
    ops: [
      { id: "items.list", label: "List items", access: "read", method: "GET", path: "/items" },
      {
        id: "items.delete",
        label: "Delete an item",
        access: "write",
        method: "DELETE",
        path: "/items/{id}",
        args: { id: { required: true } },
        confirm: "Delete item {id}",
        ...op,
      },
    ],
  };
}

describe("the optional destructive flag", () => {
  it("is optional: a write without it stays valid, as in the first release", () => {
    expect(parseManifest(manifest({})).ok).toBe(true);
  });

  it("marks a write destructive", () => {
    const result = parseManifest(manifest({ destructive: true }));
    expect(result.ok && result.manifest.ops[1]?.destructive).toBe(true);
  });

  it("refuses a non-boolean and a destructive read, naming the path", () => {
    const notBoolean = parseManifest(manifest({ destructive: "yes" }));
    expect(notBoolean.ok).toBe(false);
    if (!notBoolean.ok) expect(notBoolean.issues.map((issue) => issue.path)).toContain("ops[1].destructive");
    const read = parseManifest({
      ...(manifest({}) as Record<string, unknown>),
      ops: [{ id: "items.list", label: "List items", access: "read", method: "GET", path: "/items", destructive: true }],
    });
    expect(read.ok).toBe(false);
    if (!read.ok) expect(read.issues.map((issue) => `${issue.path}: ${issue.message}`)).toContain("ops[0].destructive: only a write can be destructive");
  });

  it("is in the JSON Schema as a boolean", () => {
    const text = JSON.stringify(manifestJsonSchema());
    expect(text).toContain('"destructive":{"type":"boolean"}');
  });
});
