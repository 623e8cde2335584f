import { describe, expect, it } from "vitest";
import { parseManifest } from "./parse-manifest.js";

function problems(op: Record<string, unknown>): string[] {
  const result = parseManifest({
    schema: 1,
    id: "demo",
    name: "Demo",
    category: "testing",
    auth: { kind: "pat", base: "https://api.demo.example.com", authorization: "Bearer", pat_help: "https://demo.example.com/tokens" },
    ops: [{ id: "files.upload", label: "Upload", access: "write", method: "POST", path: "/upload", confirm: "Upload {file}", ...op }],
  });
  return result.ok ? [] : result.issues.map((issue) => `${issue.path}: ${issue.message}`);
}

const file = { type: "file", required: true };
const related = { kind: "related", parts: [{ json: { name: "{name}" } }, { file: "file" }] };

describe("encoding: bytes", () => {
  it("takes exactly one file arg and no body_json", () => {
    expect(problems({ encoding: "bytes", args: { file } })).toEqual([]);
    expect(problems({ encoding: "bytes", args: { name: { required: true } }, confirm: "Upload {name}" })).toEqual([
      'ops[0].args: an op with encoding "bytes" declares exactly one arg of type "file" (it declares 0)',
    ]);
    expect(problems({ encoding: "bytes", args: { file }, body_json: { a: "b" } })).toEqual([
      'ops[0].body_json: an op with encoding "bytes" has no body_json: its body is the file',
    ]);
    expect(problems({ encoding: "bytes", method: "DELETE", args: { file } })).toEqual([
      'ops[0].method: an upload (encoding "bytes") is sent with POST, PUT or PATCH',
    ]);
  });
});

describe("content_type", () => {
  it("fixes a bytes op's Content-Type; only on a bytes op, only a media type", () => {
    expect(problems({ encoding: "bytes", content_type: "application/octet-stream", args: { file } })).toEqual([]);
    expect(problems({ content_type: "application/octet-stream", args: { file } })).toEqual([
      'ops[0].content_type: only an op with encoding "bytes" sets its Content-Type',
    ]);
    expect(problems({ encoding: "bytes", content_type: "text/plain\r\nX-Evil: 1", args: { file } })).toEqual([
      "ops[0].content_type: must be a media type such as application/octet-stream",
    ]);
  });
});

describe("encoding: multipart", () => {
  const args = { file, name: { required: true } };
  it("declares its parts: related is the JSON metadata, then the file", () => {
    expect(problems({ encoding: "multipart", multipart: related, args, confirm: "Upload {file} as {name}" })).toEqual([]);
    expect(problems({ encoding: "multipart", args: { file } })).toEqual([
      'ops[0].multipart: an op with encoding "multipart" declares its parts: { kind: "form-data" | "related", parts: [...] }',
    ]);
    expect(problems({ encoding: "multipart", multipart: { kind: "related", parts: [{ file: "file" }, { json: {} }] }, args: { file } })).toEqual([
      "ops[0].multipart.parts: a related body is two parts: the JSON metadata, then the file",
    ]);
  });

  it("names each problem of a part at its path", () => {
    const multipart = {
      kind: "form-data",
      parts: [{ json: "{nope}" }, { name: "f", file: "name" }, { name: "g", json: "{file}", file: "file" }],
    };
    expect(problems({ encoding: "multipart", multipart, args, confirm: "Upload {file} as {name}" })).toEqual([
      "ops[0].multipart.parts[0].name: a form-data part needs a name",
      "ops[0].multipart.parts[0].json: placeholder {nope} names no declared arg",
      'ops[0].multipart.parts[1].file: names no arg of type "file" ("name")',
      'ops[0].multipart.parts[2]: a part is exactly one of "json" (a template) or "file" (the file arg)',
      "ops[0].multipart.parts[2].json: {file} is a file arg: it goes only in its own part",
      "ops[0].multipart.parts: exactly one part carries the file",
    ]);
  });

  it("parts only with encoding multipart", () => {
    expect(problems({ multipart: related, args, confirm: "Upload {file} as {name}" })).toContain(
      'ops[0].multipart: only an op with encoding "multipart" has parts',
    );
  });
});
