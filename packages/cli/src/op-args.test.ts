import { describe, expect, it } from "vitest";
import { toolInputSchema } from "./mcp/tool-schema.js";
import { opArgs } from "./op-args.js";

describe("--arg", () => {
  it("takes name=text as a string and name:=<json> as a list or a file", () => {
    expect(opArgs(["subject=a=b", 'to:=["ann@example.com","bob@example.org"]', 'file:={"sha256":"' + "0".repeat(64) + '"}'])).toEqual({
      subject: "a=b",
      to: ["ann@example.com", "bob@example.org"],
      file: { sha256: "0".repeat(64) },
    });
  });

  it("refuses JSON that is no list of strings or file, and a name given twice", () => {
    expect(() => opArgs(["to:=[1]"])).toThrow(/takes a list of strings or a file/);
    expect(() => opArgs(["to:=[oops"])).toThrow(/takes JSON/);
    expect(() => opArgs(["to=a", "to:=[]"])).toThrow(/given twice/);
    expect(() => opArgs([":=[]"])).toThrow(/takes name=value/);
  });
});

describe("MCP tool input schemas", () => {
  it("type a list arg as an array of strings with maxItems and a file arg as a file object", () => {
    const schema = toolInputSchema({
      id: "mail.send",
      label: "Send",
      access: "write",
      args: { to: { type: "string[]", max_items: 20, required: true, pattern: "[^,]+" }, file: { type: "file" } },
      confirm: "Send to {to}",
    } as never);
    expect(schema.properties.to).toEqual({ type: "array", maxItems: 20, items: { type: "string", maxLength: 256, pattern: "^(?:[^,]+)$" } });
    expect(schema.properties.file).toMatchObject({ oneOf: [{ required: ["name", "content_type", "base64"] }, { required: ["sha256"] }] });
    expect(schema.required).toEqual(["to"]);
  });
});
