import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { AuditLog, type AuditRecord } from "./audit-log.js";
import { GENESIS_PREV, lineHash } from "./audit-chain.js";
import { temporaryDirectory } from "../__fixtures__/grant-kit.js";

function record(index: number): AuditRecord {
  return {
    time: new Date(0).toISOString(),
    audit_id: `id-${index}`,
    gid: null,
    member: null,
    integration: "github",
    op: "repos.list",
    access: "read",
    args_digest: null,
    account: null,
    status: "ok",
    code: null,
    http_status: 200,
    duration_ms: 1,
  };
}

async function linesOf(path: string): Promise<string[]> {
  return (await readFile(path, "utf8")).split("\n").filter((line) => line !== "");
}

/** Every line's prev is the hash of the line before it, across `files` in order; the first is `first`. */
function expectChained(lines: readonly string[], first: string): void {
  let prev = first;
  for (const line of lines) {
    expect((JSON.parse(line) as { prev: string }).prev).toBe(prev);
    prev = lineHash(line);
  }
}

describe("AuditLog hash chain", () => {
  it("gives the first line 64 zeros and every later line the SHA-256 of the one before it", async () => {
    const path = join(await temporaryDirectory(), "audit.log");
    const log = new AuditLog(path);
    for (let i = 0; i < 4; i += 1) await log.append(record(i), { durable: i === 2 });
    await log.close();
    const lines = await linesOf(path);
    expect(lines).toHaveLength(4);
    expect((JSON.parse(lines[0] as string) as { prev: string }).prev).toBe(GENESIS_PREV);
    expectChained(lines, GENESIS_PREV);
    expect(log.head).toBe(lineHash(lines[3] as string));
  });

  it("carries the chain over a restart: the next process's first line names the file's last line", async () => {
    const path = join(await temporaryDirectory(), "audit.log");
    const first = new AuditLog(path);
    await first.append(record(1));
    await first.close();
    const second = new AuditLog(path);
    await second.append(record(2));
    await second.close();
    expectChained(await linesOf(path), GENESIS_PREV);
  });

  it("rotates at the configured size, renaming the full file aside, and the new file's first prev is the old file's last line", async () => {
    const dir = await temporaryDirectory();
    const path = join(dir, "audit.log");
    const lineBytes = Buffer.byteLength(JSON.stringify({ ...record(0), prev: GENESIS_PREV })) + 1;
    const log = new AuditLog(path, { rotateBytes: lineBytes * 3 });
    for (let i = 0; i < 7; i += 1) await log.append(record(i));
    await log.close();
    const rotated = (await readdir(dir)).filter((name) => name.startsWith("audit.log.")).sort();
    expect(rotated).toHaveLength(2);
    for (const name of rotated) expect(name).toMatch(/^audit\.log\.\d{8}T\d{9}Z(-\d+)?$/);
    const files = [...rotated.map((name) => join(dir, name)), path];
    const all: string[] = [];
    for (const file of files) {
      const lines = await linesOf(file);
      expect(lines.length).toBeLessThanOrEqual(3);
      all.push(...lines);
    }
    expect(all.map((line) => (JSON.parse(line) as AuditRecord).audit_id)).toEqual(["id-0", "id-1", "id-2", "id-3", "id-4", "id-5", "id-6"]);
    expectChained(all, GENESIS_PREV);
  });

  it("starts a file rotated into but not yet written from the rotated file's last line", async () => {
    const dir = await temporaryDirectory();
    const path = join(dir, "audit.log");
    const earlier = `${JSON.stringify({ ...record(0), prev: GENESIS_PREV })}\n`;
    await writeFile(join(dir, "audit.log.20261201T000000000Z"), "older\n");
    await writeFile(join(dir, "audit.log.20261202T000000000Z"), earlier);
    const log = new AuditLog(path);
    await log.append(record(1));
    await log.close();
    const [line] = await linesOf(path);
    expect((JSON.parse(line as string) as { prev: string }).prev).toBe(lineHash(earlier.trimEnd()));
  });
});
