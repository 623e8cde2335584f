import { describe, expect, it } from "vitest";
import { GivenPreviews, PREVIEW_MEMORY_MS, PREVIEWS_PER_WRITE, previewId } from "./given-previews.js";

describe("GivenPreviews (a sidecar without Redis)", () => {
  const id = previewId({ member: "member", gid: "gid", op: "issues.close", argsDigest: "digest" });

  it("keeps the previews given for one write, newest first, each once, and nothing for another write", () => {
    const previews = new GivenPreviews(() => 0);
    previews.remember(id, "“Found a bug”, open");
    previews.remember(id, "“Found a bug”, closed");
    previews.remember(id, "“Found a bug”, open");
    expect(previews.given(id)).toEqual(["“Found a bug”, open", "“Found a bug”, closed"]);
    expect(previews.given(previewId({ member: "member", gid: "gid", op: "issues.close", argsDigest: "other" }))).toEqual([]);
  });

  it("forgets them once no confirmation over them can verify (six minutes after the last one given)", () => {
    let now = 0;
    const previews = new GivenPreviews(() => now);
    previews.remember(id, "first");
    now = PREVIEW_MEMORY_MS - 1;
    expect(previews.given(id)).toEqual(["first"]);
    now = PREVIEW_MEMORY_MS;
    expect(previews.given(id)).toEqual([]);
    previews.remember(id, "second");
    expect(previews.given(id)).toEqual(["second"]);
  });

  it(`keeps a write's newest ${PREVIEWS_PER_WRITE} previews when its target keeps changing`, () => {
    const previews = new GivenPreviews(() => 0);
    for (let index = 0; index < PREVIEWS_PER_WRITE + 4; index += 1) previews.remember(id, `line ${index}`);
    const given = previews.given(id);
    expect(given).toHaveLength(PREVIEWS_PER_WRITE);
    expect(given[0]).toBe(`line ${PREVIEWS_PER_WRITE + 3}`);
    expect(given).not.toContain("line 3");
  });
});
