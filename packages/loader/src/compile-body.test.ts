import { describe, expect, it } from "vitest";
import { compileBody } from "./compile-body.js";

describe("compileBody", () => {
  const render = compileBody({ title: "{title}", body: "Hi {name}!", labels: ["bot", "{label}"], n: 3, nested: { plan: "{plan}" } });

  it("fills leaves and keeps literals", () => {
    expect(JSON.parse(JSON.stringify(render({ title: "T", name: "N", label: "L", plan: "pro" })))).toEqual({
      title: "T",
      body: "Hi N!",
      labels: ["bot", "L"],
      n: 3,
      nested: { plan: "pro" },
    });
  });

  it("drops a key or item whose optional arg was not given", () => {
    expect(JSON.parse(JSON.stringify(render({ title: "T" })))).toEqual({ title: "T", labels: ["bot"], n: 3, nested: {} });
  });

  it("keeps a value that looks like JSON as one string", () => {
    const value = '", "admin": true, "x": "';
    const out = JSON.parse(JSON.stringify(render({ title: value })));
    expect(out.title).toBe(value);
    expect(out).not.toHaveProperty("admin");
  });

  it("never expands a placeholder inside a value, and ignores inherited names", () => {
    const out = compileBody({ a: "{a}", b: "{constructor}" })({ a: "{b}" }) as Record<string, unknown>;
    expect(out.a).toBe("{b}");
    expect(out).not.toHaveProperty("b");
  });

  it("keeps a __proto__ key of the template as data", () => {
    const template = JSON.parse('{"__proto__": {"x": "{a}"}}');
    const out = compileBody(template)({ a: "1" });
    expect(JSON.stringify(out)).toBe('{"__proto__":{"x":"1"}}');
  });
});
