import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { CommandIo } from "./io.js";
import { main } from "./main.js";

const read = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  label: `Read ${id}`,
  access: "read",
  method: "GET",
  path: `/${id.replace(".", "/")}`,
  pick: { fields: ["id"] },
  ...extra,
});
const write = {
  id: "things.create",
  label: "Create a thing",
  access: "write",
  method: "POST",
  path: "/things",
  args: { name: { required: true } },
  body_json: { name: "{name}" },
  confirm: "Create the thing {name}?",
};
const manifest = (ops: unknown[]) => ({
  schema: 1,
  id: "acme",
  name: "Acme",
  category: "development",
  auth: { kind: "pat", base: "https://api.acme.example", authorization: "Bearer", pat_help: "https://acme.example/tokens" },
  errors: { message: ["error.message"] },
  ops,
});

let dir: string;
let out: string[];
let err: string[];
let io: CommandIo;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "cli-rules-"));
  out = [];
  err = [];
  io = { stdout: (text) => void out.push(text), stderr: (text) => void err.push(text), env: {}, cwd: dir };
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe("integrations validate: the catalog rules", () => {
  it("refuses a read that carries a confirm line, naming the file and the JSON path", async () => {
    await writeFile(join(dir, "acme.json"), JSON.stringify(manifest([read("things.list", { confirm: "List?" }), read("things.get"), write])));
    expect(await main(["validate", dir], io)).toBe(1);
    expect(err.join("")).toContain("acme.json: ops[0].confirm: a read carries no confirm line");
  });

  it("warns, and still passes, on a POST read that is no documented search; --strict refuses it", async () => {
    const post = read("things.fetch", { method: "POST", body_json: { id: "1" } });
    await writeFile(join(dir, "acme.json"), JSON.stringify(manifest([read("things.list"), post, write])));
    expect(await main(["validate", "."], io)).toBe(0);
    expect(err.join("")).toBe(
      'warning: acme.json: ops[1].method: a read sent with POST: if it changes nothing (its query travels in a body), mark it "search": true; if it changes something, make it a write (rule read-method)\n',
    );
    expect(out.join("")).toMatch(/^ok: 1 manifests, 3 ops valid/);
    err.length = 0;
    out.length = 0;
    expect(await main(["validate", ".", "--strict"], io)).toBe(1);
    expect(err.join("")).toContain("(rule read-method)");
    expect(err.join("")).toContain("1 catalog rule broken (--strict)");
    expect(out).toEqual([]);
  });

  it("says nothing of a POST read marked search: true", async () => {
    const post = read("things.fetch", { method: "POST", body_json: { id: "1" }, search: true });
    await writeFile(join(dir, "acme.json"), JSON.stringify(manifest([read("things.list"), post, write])));
    expect(await main(["validate", ".", "--strict"], io)).toBe(0);
    expect(err).toEqual([]);
  });

  it("names the rule a test used to hold alone: two reads, a write, a pick on every read", async () => {
    const { pick: _pick, ...unpicked } = read("things.list");
    await writeFile(join(dir, "acme.json"), JSON.stringify(manifest([unpicked])));
    expect(await main(["validate", "."], io)).toBe(0);
    const lines = err.join("").trim().split("\n");
    expect(lines).toEqual([
      "warning: acme.json: ops: has 1 read; the catalog wants at least two (rule two-reads)",
      "warning: acme.json: ops: has no write; the catalog wants at least one (rule one-write)",
      "warning: acme.json: ops[0]: a read with no pick hands the bot the provider's whole answer; pick its root or fields (rule read-picks)",
    ]);
  });

  it("finds the shipped manifests keeping every catalog rule, strictly too", async () => {
    expect(await main(["validate", "--strict"], io)).toBe(0);
    expect(err.join("")).not.toContain("warning:");
  });
});
