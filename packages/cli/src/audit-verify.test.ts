import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AuditLog, auditLineHash, GENESIS_PREV, type AuditRecord } from "@eleven-integrations/sidecar";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { CommandIo } from "./io.js";
import { main } from "./main.js";

let dir: string;
let out: string[];
let err: string[];
let io: CommandIo;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "cli-audit-"));
  out = [];
  err = [];
  io = { stdout: (text) => void out.push(text), stderr: (text) => void err.push(text), env: {}, cwd: dir };
});
afterEach(() => rm(dir, { recursive: true, force: true }));

function record(index: number): AuditRecord {
  return {
    time: new Date(index * 1000).toISOString(),
    audit_id: `id-${index}`,
    gid: null,
    member: null,
    integration: "github",
    op: "issues.create",
    access: "write",
    args_digest: null,
    account: null,
    status: index % 2 === 0 ? "started" : "ok",
    code: null,
    http_status: index % 2 === 0 ? null : 201,
    duration_ms: 3,
  };
}

/** Six lines written by the sidecar's own audit log; `rotateBytes` splits them over files. */
async function journal(count = 6, rotateBytes?: number): Promise<string[]> {
  const path = join(dir, "audit.log");
  const log = new AuditLog(path, rotateBytes === undefined ? {} : { rotateBytes });
  for (let i = 0; i < count; i += 1) await log.append(record(i), { durable: true });
  await log.close();
  const rotated = (await readdir(dir)).filter((name) => name.startsWith("audit.log.")).sort();
  return [...rotated.map((name) => join(dir, name)), path];
}

async function lines(path: string): Promise<string[]> {
  return (await readFile(path, "utf8")).split("\n").slice(0, -1);
}

async function verify(...args: string[]): Promise<number> {
  out.length = 0;
  err.length = 0;
  return main(["audit", "verify", ...args], io);
}

describe("integrations audit verify", () => {
  it("prints the head hash of an untouched journal: the SHA-256 of its last line", async () => {
    const [file] = await journal();
    const last = (await lines(file as string)).at(-1) as string;
    expect(await verify(file as string)).toBe(0);
    expect(out.join("")).toBe(`${auditLineHash(last)}\n`);
    expect(err.join("")).toMatch(/6 lines chained, from the journal's start/);
    expect(await verify(file as string, "--head", auditLineHash(last))).toBe(0);
  });

  it("follows the chain across rotated files given oldest first, and refuses them out of order", async () => {
    const files = await journal(6, 700);
    expect(files.length).toBeGreaterThan(2);
    expect(await verify(...files)).toBe(0);
    expect(await verify(...files.slice(1))).toBe(0);
    expect(err.join("")).toMatch(/continuing from an earlier line [0-9a-f]{64}/);
    expect(await verify(files[1] as string, files[0] as string, ...files.slice(2))).toBe(1);
    expect(err.join("")).toMatch(/the chain breaks here/);
  });

  it("names line 3 when line 3 was edited", async () => {
    const [file] = (await journal()) as [string];
    const text = await lines(file);
    text[2] = (text[2] as string).replace('"http_status":null', '"http_status":500');
    await writeFile(file, `${text.join("\n")}\n`);
    expect(await verify(file)).toBe(1);
    expect(err.join("")).toMatch(/audit\.log:4: the chain breaks here: .*audit\.log:3 was changed, or a line was removed between .*audit\.log:3 and this one/);
  });

  it("names where a line was removed (line 3 of 6 deleted)", async () => {
    const [file] = (await journal()) as [string];
    const text = await lines(file);
    text.splice(2, 1);
    await writeFile(file, `${text.join("\n")}\n`);
    expect(await verify(file)).toBe(1);
    expect(err.join("")).toMatch(/audit\.log:3: the chain breaks here: .*audit\.log:2 was changed, or a line was removed between .*audit\.log:2 and this one/);
  });

  it("names the first reordered line (lines 3 and 4 swapped)", async () => {
    const [file] = (await journal()) as [string];
    const text = await lines(file);
    [text[2], text[3]] = [text[3] as string, text[2] as string];
    await writeFile(file, `${text.join("\n")}\n`);
    expect(await verify(file)).toBe(1);
    expect(err.join("")).toMatch(/audit\.log:3: the chain breaks here: this line follows .*audit\.log:4, not .*audit\.log:2: lines were reordered or removed/);
  });

  it("catches a changed or removed last line only against a recorded head", async () => {
    const [file] = (await journal()) as [string];
    const text = await lines(file);
    const head = auditLineHash(text.at(-1) as string);
    await writeFile(file, `${text.slice(0, -1).join("\n")}\n`);
    expect(await verify(file)).toBe(0);
    expect(await verify(file, "--head", head)).toBe(1);
    expect(err.join("")).toMatch(/the head is [0-9a-f]{64}, not the recorded/);
  });

  it("refuses a line that is not chained, and an empty journal", async () => {
    const [file] = (await journal()) as [string];
    const text = await lines(file);
    text[1] = '{"time":"x"}';
    await writeFile(file, `${text.join("\n")}\n`);
    expect(await verify(file)).toBe(1);
    expect(err.join("")).toMatch(/audit\.log:2: not a chained audit line/);
    const empty = join(dir, "empty.log");
    await writeFile(empty, "");
    expect(await verify(empty)).toBe(1);
    expect(err.join("")).toMatch(/no audit lines/);
    expect(GENESIS_PREV).toBe("0".repeat(64));
  });

  it("is a usage error without files or with a malformed --head", async () => {
    expect(await verify()).toBe(2);
    const [file] = (await journal()) as [string];
    expect(await verify(file, "--head", "abc")).toBe(2);
  });
});
