import { describe, expect, it } from "vitest";
import { compilePreview, PREVIEW_NONE } from "./compile-preview.js";

describe("compilePreview", () => {
  const preview = compilePreview({
    op: "issues.get",
    args: { number: "{number}", repo: "{owner}/{repo}" },
    line: "“{title}”, {comments} comments, opened by {user.login}",
  });

  it("fills the read's args from the write's, dropping an arg whose optional source was not given", () => {
    expect({ ...preview.args({ number: "12", owner: "octocat", repo: "hello" }) }).toEqual({ number: "12", repo: "octocat/hello" });
    expect({ ...preview.args({ number: "12" }) }).toEqual({ number: "12" });
  });

  it("renders picked fields: a number as its JSON text, a missing field as (none), each value through the neutraliser", () => {
    const data = { title: "Fix the build", comments: 3, "user.login": "octocat" };
    expect(preview.renderLine(data)).toEqual({ ok: true, line: "“Fix the build”, 3 comments, opened by octocat" });
    expect(preview.renderLine({ title: "x", "user.login": null })).toEqual({ ok: true, line: `“x”, ${PREVIEW_NONE} comments, opened by ${PREVIEW_NONE}` });
    expect(preview.renderLine(data, (text) => `[${text}]`)).toEqual({ ok: true, line: "“[Fix the build]”, [3] comments, opened by [octocat]" });
  });

  it("reads only own fields and refuses a list or a scalar answer", () => {
    const inherited = Object.create({ title: "inherited" }) as Record<string, unknown>;
    expect(preview.renderLine(inherited)).toMatchObject({ ok: true, line: expect.stringContaining(`“${PREVIEW_NONE}”`) });
    expect(preview.renderLine([{ title: "x" }])).toMatchObject({ ok: false, message: expect.stringMatching(/list/) });
    expect(preview.renderLine("text")).toMatchObject({ ok: false });
  });

  it("shortens one long value", () => {
    const rendered = preview.renderLine({ title: "x".repeat(1000), comments: 1, "user.login": "a" });
    expect(rendered.ok && rendered.line.length).toBeLessThan(400);
  });
});
