import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { extractManifests } from "./extract-manifests.mjs";

const extract = extractManifests as (root: string, target: string) => string[];
const root = new URL("..", import.meta.url).pathname;
let work: string;

beforeEach(() => {
  work = mkdtempSync(join(tmpdir(), "extract-test-"));
});
afterEach(() => rmSync(work, { recursive: true, force: true }));

describe("manifests:extract", () => {
  it("writes a standalone repository that depends on the published tools only", () => {
    const target = join(work, "registry");
    const files = extract(root, target);
    expect(files).toEqual(
      expect.arrayContaining([
        "package.json",
        "README.md",
        ".ci/run",
        ".changeset/config.json",
        ".changeset/README.md",
        "scripts/embed.mjs",
        "integrations/github.json",
        ".gitignore",
      ]),
    );
    const packageJson = JSON.parse(readFileSync(join(target, "package.json"), "utf8"));
    const cliVersion = JSON.parse(readFileSync(join(root, "packages/cli/package.json"), "utf8")).version;
    expect(packageJson.name).toBe("@eleven-integrations/manifests");
    expect(packageJson.devDependencies["@eleven-integrations/cli"]).toBe(`^${cliVersion}`);
    expect(JSON.stringify(packageJson)).not.toContain("workspace:");
    expect(statSync(join(target, ".ci/run")).mode & 0o111).not.toBe(0);
    expect(readFileSync(join(target, ".ci/run"), "utf8")).toContain("npx --no-install integrations validate integrations");
    const changesets = JSON.parse(readFileSync(join(target, ".changeset/config.json"), "utf8"));
    expect(changesets).toMatchObject({ access: "public", baseBranch: "main" });
    expect(readFileSync(join(target, "README.md"), "utf8")).toContain("## Review checklist");
    expect(readFileSync(join(target, "integrations/github.json"), "utf8")).toBe(readFileSync(join(root, "manifests/integrations/github.json"), "utf8"));
  });

  it("refuses a folder that is not empty, writing nothing there", () => {
    const target = join(work, "busy");
    mkdirSync(target);
    writeFileSync(join(target, "keep.txt"), "mine\n");
    expect(() => extract(root, target)).toThrow(`${target} is not empty`);
    expect(existsSync(join(target, "package.json"))).toBe(false);
  });
});
