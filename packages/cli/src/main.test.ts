import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { main } from "./main.js";
import type { CommandIo } from "./io.js";

const manifest = {
  schema: 1,
  id: "acme",
  name: "Acme",
  category: "development",
  auth: { kind: "pat", base: "https://api.acme.example", authorization: "Bearer", pat_help: "https://acme.example/tokens" },
  ops: [
    { id: "things.list", label: "List things", access: "read", method: "GET", path: "/things", pick: { fields: ["id"] } },
    {
      id: "things.create",
      label: "Create a thing",
      access: "write",
      method: "POST",
      path: "/things",
      args: { name: { required: true } },
      body_json: { name: "{name}" },
      confirm: "Create the thing {name}?",
    },
  ],
};

let dir: string;
let out: string[];
let err: string[];
let io: CommandIo;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "cli-"));
  out = [];
  err = [];
  io = { stdout: (text) => void out.push(text), stderr: (text) => void err.push(text), env: {}, cwd: dir };
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe("integrations validate", () => {
  it("exits 0 with a one-line summary on a valid folder", async () => {
    await writeFile(join(dir, "acme.json"), JSON.stringify(manifest));
    expect(await main(["validate", "."], io)).toBe(0);
    expect(out.join("")).toMatch(/^ok: 1 manifests, 2 ops valid in \. \(registry [0-9a-f]{12}\)\n$/);
  });

  it("exits 1 listing every problem as file: path: message", async () => {
    const broken = structuredClone(manifest) as typeof manifest & { ops: Record<string, unknown>[] };
    delete broken.ops[1]?.confirm;
    (broken.ops[0] as Record<string, unknown>).path = "/things/../admin";
    await writeFile(join(dir, "acme.json"), JSON.stringify(broken));
    await writeFile(join(dir, "other.json"), "{ nope");
    expect(await main(["validate", dir], io)).toBe(1);
    const lines = err.join("").trim().split("\n");
    expect(lines).toContain("acme.json: ops[1].confirm: every write needs a confirm line");
    expect(lines).toContain('acme.json: ops[0].path: segment ".." is a dot segment');
    expect(lines.some((line) => line.startsWith("other.json: $: invalid JSON"))).toBe(true);
    expect(lines.at(-1)).toBe("3 problems: nothing loaded");
    expect(out).toEqual([]);
  });

  it("validates the repository's manifests by default", async () => {
    expect(await main(["validate"], io)).toBe(0);
    expect(out.join("")).toMatch(/^ok: \d+ manifests/);
  });
});

describe("integrations list and show", () => {
  beforeEach(() => writeFile(join(dir, "acme.json"), JSON.stringify(manifest)));

  it("lists one line per integration", async () => {
    expect(await main(["list", "--dir", "."], io)).toBe(0);
    expect(out.join("")).toBe("acme  Acme  development  pat  1 read, 1 write\n");
  });

  it("shows the ops with their access and confirm lines", async () => {
    expect(await main(["show", "acme", "--dir", dir], io)).toBe(0);
    const text = out.join("");
    expect(text).toContain("host: https://api.acme.example");
    expect(text).toContain("write things.create(name) — Create a thing");
    expect(text).toContain("confirm: Create the thing {name}?");
  });

  it("shows the manifest as JSON", async () => {
    expect(await main(["show", "acme", "--dir", dir, "--json"], io)).toBe(0);
    expect(JSON.parse(out.join(""))).toEqual(manifest);
  });

  it("exits 1 for an unknown integration", async () => {
    expect(await main(["show", "nope", "--dir", dir], io)).toBe(1);
    expect(err.join("")).toContain('unknown integration "nope"');
  });
});

describe("usage errors exit 2 and say what is wrong", () => {
  it.each([
    [["frobnicate"], 'unknown command "frobnicate"'],
    [["show"], "show needs an integration id"],
    [["list", "--dir"], "--dir needs a value"],
    [["list", "--colour", "red"], "unknown option --colour"],
    [["validate", "a", "b"], "at most one folder"],
    [[], "usage:"],
  ])("%j", async (argv, message) => {
    expect(await main(argv, io)).toBe(2);
    expect(err.join("") + out.join("")).toContain(message);
  });
});
