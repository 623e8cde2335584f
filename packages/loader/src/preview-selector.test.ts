import { parseManifest } from "@eleven-integrations/schema";
import { describe, expect, it } from "vitest";
import { compilePreview, PREVIEW_NONE } from "./compile-preview.js";

// A Jira-shaped preview: the transition a write will make, picked from the issue's transitions by the write's arg.
const line = "“{fields.summary}” moves to {transitions[id={transition_id}].to.name}";

describe("preview selectors by key (issue 38)", () => {
  const preview = compilePreview({ op: "issues.get", args: { key: "{key}" }, line });
  const data = {
    "fields.summary": "Fix login",
    transitions: [
      { id: "11", to: { name: "To Do" } },
      { id: 31, to: { name: "Done" } },
    ],
  };

  it("pick the element whose key equals the write's arg (a number compared as its JSON text), then the path after it", () => {
    expect(preview.renderLine(data, undefined, { key: "PROJ-1", transition_id: "31" })).toEqual({ ok: true, line: "“Fix login” moves to Done" });
    expect(preview.renderLine(data, undefined, { key: "PROJ-1", transition_id: "11" })).toEqual({ ok: true, line: "“Fix login” moves to To Do" });
  });

  it("show (none) when no element matches, the arg is missing, or the field is no list", () => {
    expect(preview.renderLine(data, undefined, { transition_id: "99" })).toEqual({ ok: true, line: `“Fix login” moves to ${PREVIEW_NONE}` });
    expect(preview.renderLine(data)).toEqual({ ok: true, line: `“Fix login” moves to ${PREVIEW_NONE}` });
    expect(preview.renderLine({ ...data, transitions: { id: "31" } }, undefined, { transition_id: "31" })).toMatchObject({
      line: `“Fix login” moves to ${PREVIEW_NONE}`,
    });
  });

  it("never reads through the prototype: a __proto__ key or an inherited id selects nothing", () => {
    const sneaky = JSON.parse('{"transitions":[{"__proto__":{"id":"31"},"to":{"name":"Hidden"}}]}') as Record<string, unknown>;
    expect(preview.renderLine(sneaky, undefined, { transition_id: "31" })).toMatchObject({ line: expect.stringContaining(PREVIEW_NONE) });
  });

  it("add the selected value under the placeholder's text, for grants' renderPreview", () => {
    expect(preview.fields(data, { transition_id: "31" })["transitions[id={transition_id}].to.name"]).toBe("Done");
  });

  it("are checked at load: the list must be picked and the arg must be the write's", () => {
    const manifest = (previewLine: string) => ({
      schema: 1,
      id: "demo",
      name: "Demo",
      category: "testing",
      auth: { kind: "pat", base: "https://api.demo.example.com", authorization: "Bearer", pat_help: "https://demo.example.com/tokens" },
      ops: [
        {
          id: "issues.get",
          label: "Get",
          access: "read",
          method: "GET",
          path: "/issues/{key}",
          args: { key: { required: true } },
          pick: { fields: ["fields.summary", "transitions"] },
        },
        {
          id: "issues.transition",
          label: "Transition",
          access: "write",
          method: "POST",
          path: "/issues/{key}/transitions",
          args: { key: { required: true }, transition_id: { required: true } },
          body_json: { transition: { id: "{transition_id}" } },
          confirm: "Move {key} with transition {transition_id}",
          preview: { op: "issues.get", args: { key: "{key}" }, line: previewLine },
        },
      ],
    });
    expect(parseManifest(manifest(line)).ok).toBe(true);
    const problems = (previewLine: string) => {
      const result = parseManifest(manifest(previewLine));
      return result.ok ? [] : result.issues.map((issue) => `${issue.path}: ${issue.message}`);
    };
    expect(problems("to {steps[id={transition_id}].name}")).toEqual([
      "ops[1].preview.line: {steps} is not a picked field of issues.get (pick.fields: fields.summary, transitions)",
    ]);
    expect(problems("to {transitions[id={other}].to.name}")).toEqual([
      "ops[1].preview.line: {transitions[id={other}].to.name} selects by {other}, which is not an arg of issues.transition",
    ]);
  });
});
