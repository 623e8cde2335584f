import { spawnSync } from "node:child_process";
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

describe("the member's exact step for a chip", () => {
  it("is an integrations confirm command a POSIX shell reads back into exactly these args, digest, grant and preview", () => {
    const args = { document_id: "195j9eDD3ccgjQRttHhJPymLJUCOUjs-jmwTrekvdjFE", text: `It's "done" $HOME; rm -rf / \`id\`` };
    const preview = "“Quarterly plan” — it's $(whoami)";
    const result = runResult({ status: "confirmation_required", ...CHIP, preview }, args);
    const command = text(result)
      .split("\n")
      .find((line) => line.includes("integrations confirm"))
      ?.trim();
    expect(command).toBeDefined();
    // The shell runs printf instead of the CLI: one argument per line, exactly as the CLI would get them.
    const shown = spawnSync(
      "sh",
      ["-c", (command as string).replace("integrations confirm", "printf '%s\\n' confirm").replace("<your member key file>", "member.json")],
      {
        encoding: "utf8",
      },
    );
    expect(shown.status).toBe(0);
    expect(shown.stdout.split("\n")).toEqual([
      "confirm",
      CHIP.integration,
      CHIP.op,
      "--member",
      "member.json",
      "--gid",
      CHIP.gid,
      "--expect-digest",
      CHIP.args_digest,
      "--arg",
      `document_id=${args.document_id}`,
      "--arg",
      `text=${args.text}`,
      "--preview",
      "-",
      "",
    ]);
    // And the preview reaches the command's standard input as it was.
    const piped = spawnSync("sh", ["-c", (command as string).replace(/\| integrations confirm .*$/, "| cat")], { encoding: "utf8" });
    expect(piped.stdout).toBe(preview);
  });
});
