import { describe, expect, it } from "vitest";
import { runResult } from "./tool-result.js";

const CHIP = {
  integration: "google-docs",
  op: "documents.append_text",
  confirm: "Add to the end of Google Doc 195j9eDD3ccgjQRttHhJPymLJUCOUjs-jmwTrekvdjFE, seen by everyone who can open it: “ship it”",
  details: [],
  args_digest: "digest",
  gid: "AAAAAAAAAAAAAAAAAAAAAA",
};

const text = (result: ReturnType<typeof runResult>) => result.content.map((part) => (part.type === "text" ? part.text : "")).join("");

describe("MCP tool results for a write with a preview", () => {
  it("a write without a confirmation carries the preview for the member, under the line", () => {
    const result = runResult({ status: "confirmation_required", ...CHIP, preview: "“Quarterly plan”" });
    expect(result.isError).toBeUndefined();
    expect(result.structuredContent).toMatchObject({ status: "confirmation_required", preview: "“Quarterly plan”", confirm: CHIP.confirm });
    expect(text(result)).toContain(`  ${CHIP.confirm}\n  “Quarterly plan”\n`);
  });

  it("target_changed is an error that carries the new chip to confirm again", () => {
    const result = runResult({
      status: "error",
      integration: CHIP.integration,
      op: CHIP.op,
      error: { code: "target_changed", message: "what this write touches changed", next_action: "Show the member the new chip." },
      confirm: CHIP.confirm,
      preview: "“Layoff list (draft)”",
      details: [],
      args_digest: CHIP.args_digest,
      gid: CHIP.gid,
    });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({
      status: "error",
      error: { code: "target_changed" },
      confirm: CHIP.confirm,
      preview: "“Layoff list (draft)”",
      gid: CHIP.gid,
      args_digest: "digest",
    });
    expect(text(result)).toContain(`  ${CHIP.confirm}\n  “Layoff list (draft)”\n`);
    expect(text(result)).toContain("Next: Show the member the new chip.");
  });
});
