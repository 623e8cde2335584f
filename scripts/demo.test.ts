import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";

const DEMO = fileURLToPath(new URL("./demo.mjs", import.meta.url));

it("pnpm demo runs the whole loop with no network, narrates each step and exits 0", () => {
  const run = spawnSync(process.execPath, [DEMO], { encoding: "utf8", timeout: 120_000, env: { ...process.env, NO_COLOR: "1" } });
  expect(run.stderr).toBe("");
  expect(run.status).toBe(0);
  const out = run.stdout;
  expect(out).toMatch(/1\. The catalog, from a real broker on 127\.0\.0\.1\n {3}GET http:\/\/127\.0\.0\.1:\d+\/registry: \d+ integrations, \d+ ops/);
  expect(out).toContain("write grant for github, 15 minutes");
  // The read and its second page, as the stand-in's Link header gave them.
  expect(out).toContain("#7 Dark mode for the catalog\n   #6 Search ignores accents\n   next_page: yes\n   #5 Document the grant lifetime   (page 2)");
  // The write's chip and the preview the sidecar read from the stand-in for it.
  expect(out).toContain("chip: Close issue octocat/hello-world#7 as completed, notifying everyone subscribed to it");
  expect(out).toContain("preview (read from the provider just now): “Dark mode for the catalog”, open, 3 comments, opened by octocat");
  expect(out).toContain("requests at the stand-in so far: 3 (no write yet: true)");
  expect(out).toContain("http 200: issue #7 “Dark mode for the catalog” closed (completed)");
  expect(out).toMatch(
    /7\. Its receipt\n {3}verified with the sidecar's receipt_key from \/v1\/identity \([^)]+\)\n {3}issues\.close under grant [^,]+, ok, http 200, audit line /,
  );
  expect(out).toContain("replayed: true, issue #7 closed, the stored outcome answered again\n   no second write reached the stand-in");
  expect(out).toMatch(/9\. An MCP client[^\n]*\n {3}14 tools: [^\n]*github__issues__list[^\n]*\n {3}github__issues__list → \[\{"number":7/);
  expect(out).toMatch(/Stopping everything this demo started\n {3}done in \d+\.\d s\n$/);
  // The member's token never reaches the narration.
  expect(out).not.toContain("ghp_demo_token_never_printed");
}, 150_000);
