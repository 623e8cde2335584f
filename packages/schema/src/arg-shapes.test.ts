import { describe, expect, it } from "vitest";
import { manifestJsonSchema } from "./json-schema.js";
import { parseManifest } from "./parse-manifest.js";
import { fileArgValueSchema, runArgsSchema } from "./run-args.js";

function manifest(op: Record<string, unknown>, auth: Record<string, unknown> = {}): unknown {
  return {
    schema: 1,
    id: "demo",
    name: "Demo",
    category: "testing",
    auth: { kind: "pat", base: "https://api.demo.example.com", authorization: "Bearer", pat_help: "https://demo.example.com/tokens", ...auth },
    ops: [{ id: "items.write", label: "Write", access: "write", method: "POST", path: "/items", confirm: "Write", ...op }],
  };
}

function problems(op: Record<string, unknown>, auth?: Record<string, unknown>): string[] {
  const result = parseManifest(manifest(op, auth));
  return result.ok ? [] : result.issues.map((issue) => `${issue.path}: ${issue.message}`);
}

const labels = { type: "string[]", max_items: 10, required: true };

describe("list args", () => {
  it("fill a whole body leaf or a query value", () => {
    expect(problems({ path: "/items?label={labels}", args: { labels }, body_json: { labels: "{labels}" }, confirm: "Label {labels}" })).toEqual([]);
  });

  it("must declare max_items, at most 100, and only lists take it", () => {
    expect(problems({ args: { labels: { type: "string[]" } } })).toEqual(["ops[0].args.labels.max_items: a list arg must declare max_items (at most 100)"]);
    expect(problems({ args: { labels: { type: "string[]", max_items: 101 } } })[0]).toMatch(/^ops\[0\]\.args\.labels\.max_items:/);
    expect(problems({ args: { name: { max_items: 3 } } })).toEqual([
      'ops[0].args.name.max_items: only a list arg (type "string[]" or "integer[]") takes max_items',
    ]);
  });

  it("refuses a list placeholder inside a longer string or in a path segment", () => {
    expect(problems({ args: { labels }, body_json: { text: "labels: {labels}" }, confirm: "{labels}" })).toEqual([
      'ops[0].body_json.text: {labels} is a list arg: it must be the whole leaf ("{labels}"), which renders as a JSON array',
    ]);
    expect(problems({ path: "/items/{labels}", args: { labels }, confirm: "{labels}" })).toEqual([
      "ops[0].path: {labels} is a list arg: it can fill only a query value (repeated keys) or a whole body leaf",
    ]);
  });

  it("checks enum values as items of the list's type", () => {
    expect(problems({ args: { ids: { type: "integer[]", max_items: 3, enum: ["1", "x"] } } })[0]).toMatch(
      /^ops\[0\]\.args\.ids\.enum\[1\]: is not of the arg's type integer\[\]/,
    );
  });
});

describe("file and path args", () => {
  it("a file arg fills no template and takes no string bounds", () => {
    expect(problems({ args: { file: { type: "file", required: true, pattern: "x" } }, body_json: { f: "{file}" }, confirm: "{file}" })).toEqual([
      "ops[0].args.file.pattern: a file arg takes no pattern (its value is a file, at most 8 MiB)",
      "ops[0].body_json.f: {file} is a file arg: only an encoding that carries files can send it",
    ]);
  });

  it("a path arg fills whole segments, with no suffix", () => {
    expect(problems({ path: "/repos/{path}", args: { path: { type: "path", required: true } }, confirm: "{path}" })).toEqual([]);
    expect(problems({ path: "/repos/{path}.json", args: { path: { type: "path", required: true } }, confirm: "{path}" })).toEqual([
      "ops[0].path: {path} is a path arg: it fills whole segments, with no suffix",
    ]);
  });

  it("the file value is { name, content_type, base64 } or { sha256 }", () => {
    expect(fileArgValueSchema.safeParse({ name: "a.txt", content_type: "text/plain", base64: "aGk=" }).success).toBe(true);
    expect(fileArgValueSchema.safeParse({ sha256: "a".repeat(64) }).success).toBe(true);
    for (const bad of [
      { name: "../a", content_type: "text/plain", base64: "aGk=" },
      { name: "a\r\n.txt", content_type: "text/plain", base64: "aGk=" },
      { name: "a.txt", content_type: "text/plain\r\nX: y", base64: "aGk=" },
      { name: "a.txt", content_type: "text/plain", base64: "aGk" },
      { name: "a.txt", content_type: "text/plain", base64: "aGk=", extra: 1 },
      { sha256: "A".repeat(64) },
    ]) {
      expect(fileArgValueSchema.safeParse(bad).success).toBe(false);
    }
    expect(runArgsSchema.safeParse({ a: "x", b: ["y"], c: { sha256: "0".repeat(64) } }).success).toBe(true);
    expect(runArgsSchema.safeParse({ a: 1 }).success).toBe(false);
    expect(runArgsSchema.safeParse({ a: [1] }).success).toBe(false);
  });
});

describe("conditional leaves and null", () => {
  const args = { visibility: { enum: ["public", "private"] } };

  it("accepts { $when: { arg, eq }, value } and null literals", () => {
    expect(problems({ args, body_json: { private: { $when: { arg: "visibility", eq: "private" }, value: true }, due: null } })).toEqual([]);
  });

  it("refuses a malformed condition, an undeclared arg and a whole-body condition, naming where", () => {
    expect(problems({ args, body_json: { p: { $when: { arg: "visibility", eq: "private" }, value: 1, other: 2 } } })).toEqual([
      'ops[0].body_json.p: a conditional leaf has exactly two keys, "$when" and "value"',
    ]);
    expect(problems({ args, body_json: { p: { $when: { arg: "nope", eq: "x" }, value: 1 } } })).toEqual([
      'ops[0].body_json.p.$when.arg: names no declared arg ("nope")',
    ]);
    expect(problems({ args, body_json: { $when: { arg: "visibility", eq: "x" }, value: 1 } })).toEqual([
      "ops[0].body_json: the whole body cannot be a conditional leaf",
    ]);
    expect(problems({ args, body_json: { p: { $when: { arg: "visibility", eq: 1 }, value: 1 } } })).toEqual([
      'ops[0].body_json.p: "$when" must be { "arg": "<arg name>", "eq": "<value>" }',
    ]);
  });
});

describe("each leaves", () => {
  const attendees = { type: "string[]", max_items: 50 };

  it("render a list arg's items through a template, the arg standing for the item inside", () => {
    expect(
      problems({ args: { attendees }, body_json: { attendees: { $each: "attendees", value: { email: "{attendees}", note: "guest {attendees}" } } } }),
    ).toEqual([]);
  });

  it("refuse a non-list arg and a malformed leaf, naming where", () => {
    expect(problems({ args: { name: {} }, body_json: { a: { $each: "name", value: "{name}" } } })).toEqual([
      'ops[0].body_json.a.$each: must name a list arg ("name" is not one)',
    ]);
    expect(problems({ args: { attendees }, body_json: { a: { $each: "attendees", value: "{attendees}", x: 1 } } })).toEqual([
      'ops[0].body_json.a: an each leaf has exactly two keys, "$each" and "value"',
    ]);
    expect(problems({ args: { attendees }, body_json: { a: { $each: "attendees", value: "x" }, b: "to {attendees}" } })).toEqual([
      'ops[0].body_json.b: {attendees} is a list arg: it must be the whole leaf ("{attendees}"), which renders as a JSON array',
    ]);
  });
});

describe("rfc2822 messages", () => {
  const message = {
    encoding: "rfc2822",
    args: { to: { type: "string[]", max_items: 50, required: true }, subject: { required: true }, text: { max_length: 4096 } },
    body_json: { raw: "{message}" },
    confirm: "Send {subject} to {to}",
  };

  it("puts the message in one {message} leaf", () => {
    expect(problems(message)).toEqual([]);
  });

  it("refuses a message arg, a wrong type, and a message leaf that is missing or shared", () => {
    expect(problems({ ...message, args: { ...message.args, message: {} } })).toContain(
      'ops[0].args.message: an rfc2822 op builds {message} itself, so "message" is not an arg name',
    );
    expect(problems({ ...message, args: { ...message.args, cc: {} } })).toEqual(['ops[0].args.cc.type: an rfc2822 message takes cc as type "string[]"']);
    expect(problems({ ...message, body_json: { raw: "x{message}" } })).toEqual([
      'ops[0].body_json: an rfc2822 op puts its message (base64url) in exactly one body leaf that is exactly "{message}"',
    ]);
    expect(problems({ ...message, body_json: { raw: "{message}", copy: "{message}" } })).toHaveLength(1);
  });

  it("without rfc2822, {message} is an ordinary placeholder that must be declared", () => {
    expect(problems({ ...message, encoding: undefined })).toContain("ops[0].body_json.raw: placeholder {message} names no declared arg");
  });
});

describe("per-op scopes", () => {
  const oauth = {
    kind: "both",
    oauth: { authorize_url: "https://demo.example.com/authorize", token_url: "https://demo.example.com/token", scopes: ["read"] },
  };

  it("are scope tokens, and need auth.oauth", () => {
    expect(problems({ scopes: ["write"] })).toEqual(["ops[0].scopes: per-op scopes need auth.oauth (they are asked at connect)"]);
    expect(problems({ scopes: ["bad scope"] }, oauth)[0]).toMatch(/^ops\[0\]\.scopes\[0\]: must be a valid scope token/);
  });
});

describe("the JSON Schema", () => {
  it("knows the new fields", () => {
    const text = JSON.stringify(manifestJsonSchema());
    for (const word of ['"string[]"', '"integer[]"', '"path"', '"file"', '"max_items"', '"rfc2822"', '"scopes"']) expect(text).toContain(word);
  });
});
