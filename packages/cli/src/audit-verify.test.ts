import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { appendFile } from "node:fs/promises";
import { generateReceiptKeys, ready, type KeyPair } from "@eleven-integrations/grants";
import { AuditCheckpoints, AuditLog, auditLineHash, GENESIS_PREV, type AuditRecord } from "@eleven-integrations/sidecar";
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

describe("integrations audit verify against the sidecar's signed checkpoints (third review, finding 7)", () => {
  let keys: KeyPair;
  beforeEach(async () => {
    await ready();
    keys = generateReceiptKeys();
  });

  /** A sidecar's journal as it writes it: the audit log with its checkpoints, opened and closed like a start and a stop. */
  async function run(from: number, to: number, signer: KeyPair = keys): Promise<void> {
    const path = join(dir, "audit.log");
    const log = new AuditLog(path, { checkpoints: new AuditCheckpoints(join(dir, "audit.checkpoints"), () => signer) });
    for (let i = from; i < to; i += 1) await log.append(record(i), { durable: i % 3 === 0 });
    await log.close();
  }

  const file = () => join(dir, "audit.log");

  it("passes the journal as written, and names the key that signed its checkpoints", async () => {
    await run(0, 6);
    await run(6, 9);
    expect(await verify(file())).toBe(0);
    expect(err.join("")).toMatch(/9 lines chained, from the journal's start/);
    expect(err.join("")).toContain(`at line 9 of 9; signed by ${keys.publicKey}`);
    expect(await verify(file(), "--key", keys.publicKey)).toBe(0);
    expect(await verify(file(), "--key", generateReceiptKeys().publicKey)).toBe(1);
    expect(err.join("")).toMatch(/audit\.checkpoints:1: it was signed by another key than --key/);
  });

  it("the attack: the newest lines removed and the sidecar started again; the chain is whole, the checkpoints are not", async () => {
    await run(0, 8);
    const text = await lines(file());
    await writeFile(file(), `${text.slice(0, 5).join("\n")}\n`);
    // Before the fix this passed: five whole lines, chained from the start.
    expect(await verify(file(), "--checkpoints", "none")).toBe(0);
    expect(await verify(file())).toBe(1);
    expect(err.join("")).toMatch(
      /the journal holds 5 lines, but the checkpoint .*audit\.checkpoints:\d+ .* recorded [678], head [0-9a-f]{64}: lines were removed from its end/,
    );
    // Restarted, the sidecar writes on from the shortened journal: the checkpoint of 8 lines still stands against it.
    await run(8, 12);
    expect(await verify(file(), "--checkpoints", "none")).toBe(0);
    expect(await verify(file())).toBe(1);
    expect(err.join("")).toMatch(/a checkpoint of \d+ lines after one of 8 .*: the journal lost lines and the sidecar started again/);
  });

  it("the attack: a middle line rewritten and every later hash recomputed passes the chain, not the checkpoints", async () => {
    await run(0, 8);
    const text = await lines(file());
    const rewritten: string[] = [];
    let prev = GENESIS_PREV;
    for (const [index, line] of text.entries()) {
      const value = JSON.parse(line) as Record<string, unknown>;
      if (index === 3) value["http_status"] = 500;
      value["prev"] = prev;
      const next = JSON.stringify(value);
      rewritten.push(next);
      prev = auditLineHash(next);
    }
    await writeFile(file(), `${rewritten.join("\n")}\n`);
    expect(await verify(file(), "--checkpoints", "none")).toBe(0);
    expect(await verify(file())).toBe(1);
    expect(err.join("")).toMatch(
      /audit\.log:\d+: the checkpoint .*audit\.checkpoints:\d+ .* recorded line \d+ as [0-9a-f]{64}: this line or one before it was changed/,
    );
    // Checkpoints forged to match need the sidecar's key: another key's are refused with --key, a changed one everywhere.
    const checkpoints = join(dir, "audit.checkpoints");
    const signed = (await readFile(checkpoints, "utf8")).trim().split("\n");
    const last = JSON.parse(signed.at(-1) as string) as { lines: number };
    await writeFile(checkpoints, `${signed.at(-1)?.replace(`"lines":${last.lines}`, `"lines":${last.lines - 1}`)}\n`);
    expect(await verify(file())).toBe(1);
    expect(err.join("")).toMatch(/its signature does not verify: it was changed after it was signed/);
  });

  it("--head takes a head recorded before the journal grew: it must be one of its lines", async () => {
    await run(0, 5);
    expect(await verify(file())).toBe(0);
    const recorded = out.join("").trim();
    await run(5, 9);
    // Before the fix, any growth failed --head.
    expect(await verify(file(), "--head", recorded)).toBe(0);
    expect(err.join("")).toMatch(/the recorded head is .*audit\.log:5; 4 lines came after it/);
    // A rewritten line up to the recorded head takes it out of the chain.
    const text = await lines(file());
    text[1] = (text[1] as string).replace('"duration_ms":3', '"duration_ms":4');
    await writeFile(file(), `${text.join("\n")}\n`);
    expect(await verify(file(), "--head", recorded, "--checkpoints", "none")).toBe(1);
  });

  it("a line a crash cut short is repaired at the next start: nothing after it is lost, and the journal verifies", async () => {
    await run(0, 4);
    // The crash: half of a fifth line reached the file, without its line feed.
    const fragment = '{"time":"1970-01-01T00:00:04.000Z","audit_id":"id-4","gid":nu';
    await appendFile(file(), fragment);
    expect(await verify(file())).toBe(1);
    await run(5, 8);
    const text = await lines(file());
    expect(text[4]).toBe(fragment);
    expect(JSON.parse(text[5] as string)).toMatchObject({
      kind: "repair",
      torn_bytes: fragment.length,
      torn_sha256: auditLineHash(fragment),
      prev: auditLineHash(text[3] as string),
    });
    expect(text.slice(6).map((line) => (JSON.parse(line) as AuditRecord).audit_id)).toEqual(["id-5", "id-6", "id-7"]);
    expect(await verify(file())).toBe(0);
    expect(err.join("")).toMatch(/8 lines chained, from the journal's start, 1 line cut short by a crash and repaired/);
    // The torn bytes are covered: changing them breaks the repair's claim.
    text[4] = (text[4] as string).replace("id-4", "id-9");
    await writeFile(file(), `${text.join("\n")}\n`);
    expect(await verify(file())).toBe(1);
    expect(err.join("")).toMatch(/audit\.log:5: not a chained audit line/);
  });
});
