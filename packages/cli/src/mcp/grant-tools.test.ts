import { describe, expect, it } from "vitest";
import { toolCatalog } from "./grant-tools.js";
import { toolName } from "./tool-name.js";
import { toolInputSchema } from "./tool-schema.js";
import type { PaletteOperation } from "@eleven-integrations/sidecar-protocol";

const list: PaletteOperation = {
  id: "items.list",
  label: "List items",
  access: "read",
  args: { cursor: { description: "where to start" }, kind: { enum: ["a", "b"] } },
  page: { arg: "cursor" },
};
const remove: PaletteOperation = {
  id: "items.delete",
  label: "Delete an item",
  access: "write",
  args: { id: { required: true, pattern: "[0-9]+" } },
  confirm: "Delete item {id}",
  destructive: true,
};

describe("tool names", () => {
  it("are <integration>__<namespace>__<verb>, and refused past 64 characters", () => {
    expect(toolName("google-calendar", "events.list")).toBe("google-calendar__events__list");
    expect(toolName("a".repeat(40), `${"b".repeat(20)}.c`)).toBeUndefined();
  });
});

describe("tool input schemas", () => {
  it("add page to a paging op (in place of its cursor arg) and confirmation to a write, anchor patterns, default maxLength 256", () => {
    expect(toolInputSchema(list)).toEqual({
      type: "object",
      properties: {
        kind: { type: "string", maxLength: 256, enum: ["a", "b"] },
        page: { type: "string", maxLength: 1024, description: expect.stringContaining("next_page") },
      },
      additionalProperties: false,
    });
    const schema = toolInputSchema(remove);
    expect(schema.properties.id).toEqual({ type: "string", maxLength: 256, pattern: "^(?:[0-9]+)$" });
    expect(schema.required).toEqual(["id"]);
    expect(schema.properties.confirmation?.description).toContain("Call first without it");
    expect(new RegExp((schema.properties.id as { pattern: string }).pattern, "u").test("12a")).toBe(false);
  });
});

describe("the tool catalog", () => {
  it("takes each op once (the first grant that allows it), reports refused grants and over-long names", () => {
    const catalog = toolCatalog([
      { grant: 0, answer: { status: "ok", integration: "shop", access: "read", ops: [list] } },
      { grant: 1, answer: { status: "ok", integration: "shop", access: "write", ops: [list, remove] } },
      {
        grant: 2,
        answer: {
          status: "error",
          integration: null,
          error: { code: "grant_expired", message: "grant refused (expired)", next_action: "Ask the member for a fresh grant." },
        },
      },
      { grant: 3, answer: { status: "ok", integration: "x".repeat(40), access: "read", ops: [{ ...list, id: `${"n".repeat(30)}.list` }] } },
    ]);
    expect(catalog.tools.map((entry) => [entry.tool.name, entry.grant])).toEqual([
      ["shop__items__list", 0],
      ["shop__items__delete", 1],
    ]);
    expect(catalog.tools[0]?.tool.annotations).toEqual({ title: "List items", readOnlyHint: true, openWorldHint: true });
    expect(catalog.tools[1]?.tool.annotations).toEqual({
      title: "Delete an item",
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: false,
      openWorldHint: true,
    });
    expect(catalog.tools[1]?.tool.description).toContain("Destructive");
    expect(catalog.tools[0]?.tool.description).toContain("pass its next_page as page");
    expect(catalog.tools[0]?.tool.description).not.toContain("Acts as");
    expect(catalog.refusals).toEqual([{ code: "grant_expired", message: "grant refused (expired)", next_action: "Ask the member for a fresh grant." }]);
    expect(catalog.problems).toHaveLength(2);
    expect(catalog.problems[1]).toContain("longer than 64 characters");
  });
});

describe("a grant that names its account", () => {
  it("names the account in each of its tools' descriptions", () => {
    const catalog = toolCatalog([
      { grant: 0, answer: { status: "ok", integration: "github", access: "read", account: { id: "583231", name: "octocat-at-work" }, ops: [list] } },
    ]);
    expect(catalog.tools[0]?.tool.description).toContain("Acts as the github account octocat-at-work (id 583231).");
  });
});
