import { mkdtemp, rm, writeFile, mkdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadRegistryFromDir } from "./load-registry-from-dir.js";
import { RegistryError } from "./registry-error.js";
import { validManifest } from "./__fixtures__/valid-manifest.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "registry-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function refusal(): Promise<RegistryError> {
  const error = await loadRegistryFromDir(dir).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(RegistryError.isInstance(error)).toBe(true);
  return error as RegistryError;
}

describe("loadRegistryFromDir", () => {
  it("loads every <id>.json and ignores other files, hidden files and folders", async () => {
    await writeFile(join(dir, "example.json"), JSON.stringify(validManifest()));
    await writeFile(join(dir, "README.md"), "# not a manifest");
    await writeFile(join(dir, ".draft.json"), "{");
    await mkdir(join(dir, "nested"));
    await writeFile(join(dir, "nested", "x.json"), "{");
    const registry = await loadRegistryFromDir(dir);
    expect(registry.integrations().map((manifest) => manifest.id)).toEqual(["example"]);
  });

  it("reports a JSON syntax error with every other problem, and loads nothing", async () => {
    await writeFile(join(dir, "example.json"), JSON.stringify({ ...validManifest(), name: "" }));
    await writeFile(join(dir, "broken.json"), '{ "schema": 1, ');
    const error = await refusal();
    expect(error.issues).toEqual(
      expect.arrayContaining([
        { file: join(dir, "broken.json"), path: "$", message: expect.stringMatching(/^invalid JSON/) },
        { file: join(dir, "example.json"), path: "name", message: "must not be empty" },
      ]),
    );
    expect(error.message).toContain(`${join(dir, "broken.json")}: $: invalid JSON`);
  });

  it("refuses an empty or missing folder", async () => {
    expect((await refusal()).issues[0]?.message).toMatch(/no manifest files/);
    await rm(dir, { recursive: true });
    expect((await refusal()).issues[0]?.message).toMatch(/cannot read the folder: ENOENT/);
  });

  it("refuses an oversized file before parsing it", async () => {
    await writeFile(join(dir, "example.json"), " ".repeat(300 * 1024));
    expect((await refusal()).issues[0]?.message).toMatch(/larger than/);
  });
});
