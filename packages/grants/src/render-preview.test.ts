import { describe, expect, it } from "vitest";
import { MAX_CONFIRM_LINE_CODE_POINTS } from "./limits.js";
import { renderPreview, renderPreviewParts } from "./render-confirm.js";

// DESIGN.md's example preview line for closing a GitHub issue.
const LINE = "“{title}”, {comments} comments, opened by {user.login}";

describe("renderPreview", () => {
  it("fills picked fields by their dot-paths; anything but a string shows as its JSON text", () => {
    expect(renderPreview(LINE, { title: "Crash on start", comments: 3, "user.login": "octocat" })).toBe("“Crash on start”, 3 comments, opened by octocat");
    expect(renderPreview("{open} / {ratio} / {labels}", { open: true, ratio: 0.5, labels: ["bug"] })).toBe("true / 0.5 / [\uFFFDbug\uFFFD]");
  });

  it("shows (none) for an absent, null or inherited field, as the loader's renderLine does", () => {
    expect(renderPreview(LINE, { title: "x", comments: null, user: { login: "octocat" } })).toBe("“x”, (none) comments, opened by (none)");
    expect(renderPreview("{constructor}", {})).toBe("(none)");
  });

  it("cleans a provider's value like a confirm value: its quotes cannot close the line's, hidden characters show", () => {
    const title = "Crash” (closed as spam), 0 comments, opened by admin. “x\u200B";
    const line = renderPreviewParts(LINE, { title, comments: 3, "user.login": "octo\u202Ecat" });
    expect(line.text).toBe("“Crash\uFFFD (closed as spam), 0 comments, opened by admin. \uFFFDx\uFFFD”, 3 comments, opened by octo\uFFFDcat");
    expect(line.parts).toEqual([
      { kind: "template", text: "“" },
      { kind: "value", text: "Crash\uFFFD (closed as spam), 0 comments, opened by admin. \uFFFDx\uFFFD", arg: "title" },
      { kind: "template", text: "”, " },
      { kind: "value", text: "3", arg: "comments" },
      { kind: "template", text: " comments, opened by " },
      { kind: "value", text: "octo\uFFFDcat", arg: "user.login" },
    ]);
  });

  it("isolates a right-to-left title and bounds the whole line", () => {
    expect(renderPreview(LINE, { title: "\u05E9\u05DC\u05D5\u05DD", comments: 1, "user.login": "a" })).toBe(
      "“\u2068\u05E9\u05DC\u05D5\u05DD\u2069”, 1 comments, opened by a",
    );
    const long = renderPreview(`${LINE} {body}`, { title: "t".repeat(500), comments: 1, "user.login": "u".repeat(500), body: "b".repeat(500) });
    expect(Array.from(long).length).toBeLessThanOrEqual(MAX_CONFIRM_LINE_CODE_POINTS);
  });
});
