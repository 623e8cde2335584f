import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { manifestsDir } from "@eleven-integrations/manifests";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { CommandIo } from "../io.js";
import { main } from "../main.js";

const require = createRequire(import.meta.url);
const GITHUB = require.resolve("@octokit/openapi/generated/api.github.com.json");

type Op = Record<string, unknown> & { id: string; args?: Record<string, Record<string, unknown>>; body_json?: Record<string, unknown> };
type ManifestJson = Record<string, unknown> & { id: string; ops: Op[] };

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "arg-shapes-check-"));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

async function github(): Promise<ManifestJson> {
  return JSON.parse(await readFile(join(manifestsDir, "github.json"), "utf8")) as ManifestJson;
}

async function checkLine(manifest: ManifestJson, opId: string): Promise<string> {
  const file = join(dir, "github.json");
  await writeFile(file, JSON.stringify(manifest));
  const out: string[] = [];
  const io: CommandIo = { stdout: (text) => void out.push(text), stderr: () => undefined, env: {}, cwd: dir };
  await main(["openapi", "check", file, "--spec", GITHUB], io);
  return out
    .join("")
    .split("\n")
    .filter((text) => text.includes(` ${opId} `) || text.startsWith(`  `))
    .join("\n");
}

function withCreate(manifest: ManifestJson, change: (op: Op) => void): ManifestJson {
  const create = manifest.ops.find((op) => op.id === "issues.create") as Op;
  change(create);
  return manifest;
}

describe("openapi check knows the fourth release's arg shapes", () => {
  it("a list arg's whole leaf is an array: fine where the spec takes one, a mismatch where it wants a string", async () => {
    const labels = { type: "string[]", max_items: 10, max_length: 50 };
    const fits = withCreate(await github(), (op) => {
      op.args = { ...op.args, labels };
      op.body_json = { ...op.body_json, labels: "{labels}" };
    });
    expect(await checkLine(fits, "issues.create")).toMatch(/^ok\s+issues\.create/m);
    const wrong = withCreate(await github(), (op) => {
      op.args = { ...op.args, labels };
      op.body_json = { ...op.body_json, body: "{labels}" };
      delete op.args?.body;
    });
    expect(await checkLine(wrong, "issues.create")).toMatch(/\{labels\} is sent as a JSON array, the spec wants/);
  });

  it("a conditional leaf is checked as its value, and a leaf the spec does not know is still found", async () => {
    const known = withCreate(await github(), (op) => {
      op.args = { ...op.args, kind: { enum: ["bug", "task"] } };
      op.body_json = { ...op.body_json, labels: { $when: { arg: "kind", eq: "bug" }, value: ["bug"] } };
    });
    expect(await checkLine(known, "issues.create")).toMatch(/^ok\s+issues\.create/m);
    const unknown = withCreate(await github(), (op) => {
      op.args = { ...op.args, kind: { enum: ["bug", "task"] } };
      op.body_json = { ...op.body_json, severity: { $when: { arg: "kind", eq: "bug" }, value: "high" } };
    });
    expect(await checkLine(unknown, "issues.create")).toMatch(/body key "severity" is not a property/);
  });
});
