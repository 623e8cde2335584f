import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { manifestsDir } from "@eleven-integrations/manifests";
import { describe, expect, it } from "vitest";
import type { CommandIo } from "../io.js";
import { main } from "../main.js";

// The shipped manifests against the pinned provider descriptions (manifests/specs/README.md):
// what `pnpm check:specs` runs, in the test suite.
const specsDir = join(dirname(manifestsDir), "specs");
const config = JSON.parse(readFileSync(join(specsDir, "checks.json"), "utf8")) as {
  openapi: { manifest: string; spec: string }[];
  graphql: { manifest: string; schema: string }[];
};
const require = createRequire(join(specsDir, "..", "..", "package.json"));
const locate = (path: string) => (path.includes("/") && !path.startsWith(".") ? require.resolve(path) : join(specsDir, path));
const allowList = join(specsDir, "allow-list.json");

async function run(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const io: CommandIo = { stdout: (text) => void out.push(text), stderr: (text) => void err.push(text), env: {}, cwd: process.cwd() };
  const code = await main(argv, io);
  return { code, out: out.join(""), err: err.join("") };
}

describe("the shipped manifests agree with the providers' descriptions", () => {
  it("checks every manifest whose provider publishes a description", () => {
    const checked = [...config.openapi, ...config.graphql].map((entry) => entry.manifest).sort();
    expect(checked).toEqual(
      expect.arrayContaining([
        "asana",
        "bitbucket",
        "box",
        "digitalocean",
        "discord",
        "figma",
        "github",
        "gmail",
        "google-calendar",
        "google-docs",
        "google-drive",
        "google-sheets",
        "hubspot",
        "intercom",
        "jira",
        "linear",
        "mailchimp",
        "microsoft-onedrive",
        "microsoft-outlook-calendar",
        "microsoft-outlook-mail",
        "microsoft-teams",
        "netlify",
        "pagerduty",
        "sendgrid",
        "sentry",
        "slack",
        "stripe",
        "twilio",
        "vercel",
        "zoom",
      ]),
    );
  });

  for (const entry of config.openapi) {
    // Microsoft's Graph description is 20 MB: dereferencing it takes a few seconds per check.
    it(`openapi check ${entry.manifest}`, { timeout: 60_000 }, async () => {
      const result = await run(["openapi", "check", join(manifestsDir, `${entry.manifest}.json`), "--spec", locate(entry.spec), "--allow", allowList]);
      expect(result.err).toBe("");
      expect(result.out).not.toMatch(/^MISMATCH/m);
      expect(result.out).not.toMatch(/^note/m);
      expect(result.code).toBe(0);
    });
  }

  for (const entry of config.graphql) {
    it(`graphql check ${entry.manifest}`, async () => {
      const result = await run(["graphql", "check", join(manifestsDir, `${entry.manifest}.json`), "--schema", locate(entry.schema), "--allow", allowList]);
      expect(result.err).toBe("");
      expect(result.out).not.toMatch(/^MISMATCH/m);
      expect(result.code).toBe(0);
    });
  }
});
