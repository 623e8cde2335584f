import { describe, expect, it } from "vitest";
import { parseManifest } from "./parse-manifest.js";
import { plainTextProblem } from "./plain-text.js";

function manifest(): Record<string, any> {
  return {
    schema: 1,
    id: "example",
    name: "Example",
    category: "productivity",
    auth: { kind: "pat", base: "https://api.example.com", authorization: "Bearer", pat_help: "https://example.com/tokens" },
    ops: [
      {
        id: "items.create",
        label: "Create an item",
        access: "write",
        method: "POST",
        path: "/items",
        args: { title: { required: true, description: "The title" }, note: { description: "A note" } },
        body_json: { title: "{title}", note: "{note}" },
        confirm: "Create item “{title}”",
      },
    ],
  };
}

function issuesOf(json: unknown): { path: string; message: string }[] {
  const result = parseManifest(json);
  return result.ok ? [] : result.issues;
}

describe("a write's confirm line shows every required arg", () => {
  it("accepts the skeleton, whose line names its one required arg", () => {
    expect(parseManifest(manifest()).ok).toBe(true);
  });

  it("refuses the Gandi-style line that hides the registrant, saying why", () => {
    const json = manifest();
    json.ops[0].args.owner_email = { required: true };
    json.ops[0].body_json.owner = { email: "{owner_email}" };
    const issues = issuesOf(json);
    expect(issues).toHaveLength(1);
    expect(issues[0]?.path).toBe("ops[0].confirm");
    expect(issues[0]?.message).toMatch(/leaves out the required arg \{owner_email\}/);
    expect(issues[0]?.message).toMatch(/must show every required value it sends/);
  });

  it("lists each hidden required arg, and lets optional args stay out of the line", () => {
    const json = manifest();
    json.ops[0].confirm = "Create an item";
    json.ops[0].args.list = { required: true };
    const messages = issuesOf(json).map((issue) => issue.message);
    expect(messages).toHaveLength(2);
    expect(messages.join("\n")).toMatch(/\{title\}/);
    expect(messages.join("\n")).toMatch(/\{list\}/);
    expect(messages.join("\n")).not.toMatch(/\{note\}/);
  });

  it("does not apply to a read", () => {
    const json = manifest();
    json.ops.push({ id: "items.get", label: "Get", access: "read", method: "GET", path: "/items/{id}", args: { id: { required: true } } });
    expect(parseManifest(json).ok).toBe(true);
  });
});

describe("manifest text is plain", () => {
  const tricks: [string, string][] = [
    ["an ANSI escape (terminal control)", "\u001b[2J\u001b[31mCreate"],
    ["a CR (overwrites the terminal line)", "Create\rDelete"],
    ["a newline", "Create\nanother line"],
    ["a tab", "Create\titem"],
    ["DEL", "Create\u007f"],
    ["a C1 control (CSI)", "Create\u009b2J"],
    ["RLO (bidi override)", "Create \u202Emeti"],
    ["an isolate", "Create \u2066x\u2069"],
    ["RLM", "Create\u200F"],
    ["a zero-width space", "Cre\u200Bate"],
    ["a zero-width joiner", "Cre\u200Date"],
    ["a BOM", "\uFEFFCreate"],
    ["a soft hyphen", "Cre\u00ADate"],
    ["a Hangul filler", "Create\u3164"],
    ["a variation selector", "Create\uFE0F"],
    ["a tag character", "Create\u{E0041}"],
    ["a line separator", "Create\u2028x"],
    ["a lone surrogate", "Create\uD800"],
  ];

  for (const field of ["name", "category", "label", "confirm", "description", "pat_help"] as const) {
    it(`refuses each trick in ${field}, naming the code point`, () => {
      for (const [what, value] of tricks) {
        const json = manifest();
        let path: string;
        if (field === "name" || field === "category") {
          json[field] = value;
          path = field;
        } else if (field === "label") {
          json.ops[0].label = value;
          path = "ops[0].label";
        } else if (field === "confirm") {
          json.ops[0].confirm = `${value} {title}`;
          path = "ops[0].confirm";
        } else if (field === "description") {
          json.ops[0].args.title.description = value;
          path = "ops[0].args.title.description";
        } else {
          json.auth.pat_help = `https://example.com/${value}`;
          path = "auth.pat_help";
        }
        const issues = issuesOf(json);
        expect(
          issues.map((issue) => issue.path),
          what,
        ).toContain(path);
        const issue = issues.find((candidate) => candidate.path === path);
        expect(issue?.message, what).toMatch(/U\+[0-9A-F]{4,6} .*manifest text must be plain/);
        // The message never carries the character itself (it would reach a terminal).
        expect(issue?.message, what).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
      }
    });
  }

  it("keeps ordinary punctuation, quotes, accents, emoji and other scripts", () => {
    for (const value of ["Create item “x” — costs money", "Créer l’élément", "Добавить задачу", "タスクを追加", "הוסף משימה", "Ship it 🚀", "a\u00A0b"]) {
      expect(plainTextProblem(value), value).toBeUndefined();
    }
  });

  it("names the kind of each character", () => {
    expect(plainTextProblem("a\u202Eb")).toMatch(/U\+202E \(a bidi control\) at character 2/);
    expect(plainTextProblem("a\u200Bb")).toMatch(/zero-width/);
    expect(plainTextProblem("\u001b")).toMatch(/control character/);
    expect(plainTextProblem("x\u3164")).toMatch(/U\+3164 \(an invisible \(default-ignorable\) character\)/);
  });
});
