import { fdatasyncSync, writeSync } from "node:fs";
import { chmod, mkdir, readFile, stat, symlink, writeFile } from "node:fs/promises";
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

async function lines(path: string): Promise<string[]> {
  return (await readFile(path, "utf8")).split("\n").filter((line) => line.length > 0);
}

describe("AuditLog durability", () => {
  it("flushes a durable line (fdatasync) and never lets a torn line swallow the next", async () => {
    const path = join(await temporaryDirectory(), "audit.log");
    let syncs = 0;
    let failNext = false;
    const log = new AuditLog(path, {
      write: (fd, buffer, offset, length) => {
        if (failNext) {
          failNext = false;
          writeSync(fd, buffer, offset, 7);
          throw Object.assign(new Error("ENOSPC"), { code: "ENOSPC" });
        }
        return writeSync(fd, buffer, offset, length);
      },
      sync: (fd) => {
        syncs += 1;
        fdatasyncSync(fd);
      },
    });
    await log.append(record(1), { durable: true });
    expect(syncs).toBe(1);
    await log.append(record(2));
    expect(syncs).toBe(1);
    failNext = true;
    await expect(log.append(record(3), { durable: true })).rejects.toThrow(/ENOSPC/);
    await log.append(record(4), { durable: true });
    await log.close();
    const written = await lines(path);
    expect(written).toHaveLength(4);
    expect(written[2]).toBe('{"time"');
    expect(JSON.parse(written[3]!)).toMatchObject({ audit_id: "id-4" });
  });

  it("writes the lines taken in one turn with one write(2), resolving each only once it is in the file", async () => {
    const path = join(await temporaryDirectory(), "audit.log");
    const writes: string[] = [];
    let syncs = 0;
    const log = new AuditLog(path, {
      write: (fd, buffer, offset, length) => {
        writes.push(buffer.subarray(offset, offset + length).toString("utf8"));
        return writeSync(fd, buffer, offset, length);
      },
      sync: (fd) => {
        syncs += 1;
        fdatasyncSync(fd);
      },
    });
    await log.open();
    let settled = 0;
    const reads = [1, 2, 3].map((index) => log.append(record(index)).then(() => (settled += 1)));
    expect(writes).toHaveLength(0);
    await Promise.resolve();
    expect(settled).toBe(0);
    await Promise.all(reads);
    expect(writes).toHaveLength(1);
    expect(writes[0]!.split("\n").filter((line) => line !== "")).toHaveLength(3);
    expect(syncs).toBe(0);
    // A durable line goes out at once, with the lines still waiting before it, and is flushed.
    const read = log.append(record(4));
    const durable = log.append(record(5), { durable: true });
    expect(writes).toHaveLength(2);
    expect(syncs).toBe(1);
    await Promise.all([read, durable]);
    await log.close();
    expect((await lines(path)).map((line) => (JSON.parse(line) as AuditRecord).audit_id)).toEqual(["id-1", "id-2", "id-3", "id-4", "id-5"]);
  });

  it("rejects every line of a turn whose write failed, and chains the next line from the last one in the file", async () => {
    const path = join(await temporaryDirectory(), "audit.log");
    let fail = false;
    const log = new AuditLog(path, {
      write: (fd, buffer, offset, length) => {
        if (fail) throw Object.assign(new Error("ENOSPC"), { code: "ENOSPC" });
        return writeSync(fd, buffer, offset, length);
      },
      sync: (fd) => fdatasyncSync(fd),
    });
    await log.append(record(1));
    fail = true;
    const refused = await Promise.allSettled([log.append(record(2)), log.append(record(3))]);
    expect(refused.map((outcome) => outcome.status)).toEqual(["rejected", "rejected"]);
    fail = false;
    await log.append(record(4));
    await log.close();
    const written = await lines(path);
    expect(written.map((line) => (JSON.parse(line) as AuditRecord).audit_id)).toEqual(["id-1", "id-4"]);
    expect(JSON.parse(written[1]!)).toMatchObject({ prev: lineHash(written[0]!) });
    expect(log.head).toBe(lineHash(written[1]!));
  });

  it("refuses an audit file that is a symbolic link", async () => {
    const dir = await temporaryDirectory();
    await writeFile(join(dir, "target"), "", { mode: 0o600 });
    await symlink(join(dir, "target"), join(dir, "audit.log"));
    await expect(new AuditLog(join(dir, "audit.log")).open()).rejects.toThrow(/ELOOP|symbolic/);
  });
});

describe("AuditLog", () => {
  it("creates the file with mode 0600 and appends one JSON line per record", async () => {
    const path = join(await temporaryDirectory(), "audit.log");
    const log = new AuditLog(path);
    await log.append(record(1));
    await log.append(record(2));
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect((await lines(path)).map((line) => (JSON.parse(line) as AuditRecord).audit_id)).toEqual(["id-1", "id-2"]);
    await log.close();
  });

  it("has the line in the file when append resolves", async () => {
    const path = join(await temporaryDirectory(), "audit.log");
    const log = new AuditLog(path);
    await log.append(record(1));
    expect(await lines(path)).toHaveLength(1);
    await log.close();
  });

  it("keeps what is there and narrows a wider mode to 0600", async () => {
    const path = join(await temporaryDirectory(), "audit.log");
    await writeFile(path, '{"earlier":true}\n', { mode: 0o644 });
    await chmod(path, 0o644);
    const log = new AuditLog(path);
    await log.append(record(1));
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect(await lines(path)).toEqual(['{"earlier":true}', JSON.stringify({ ...record(1), prev: lineHash('{"earlier":true}') })]);
    await log.close();
  });

  it("writes concurrent appends as whole lines, in order, and close waits for them", async () => {
    const path = join(await temporaryDirectory(), "audit.log");
    const log = new AuditLog(path);
    const appends = Array.from({ length: 500 }, (_, index) => log.append(record(index)));
    await log.close();
    await Promise.all(appends);
    const written = (await lines(path)).map((line) => (JSON.parse(line) as AuditRecord).audit_id);
    expect(written).toEqual(Array.from({ length: 500 }, (_, index) => `id-${index}`));
  });

  it("refuses appends once closed", async () => {
    const log = new AuditLog(join(await temporaryDirectory(), "audit.log"));
    await log.close();
    await expect(log.append(record(1))).rejects.toThrow(/closed/);
  });

  it("rejects an append it cannot write, and tries again on the next", async () => {
    const dir = await temporaryDirectory();
    const path = join(dir, "missing-dir", "audit.log");
    const log = new AuditLog(path);
    await expect(log.append(record(1))).rejects.toMatchObject({ code: "ENOENT" });
    await mkdir(join(dir, "missing-dir"));
    await log.append(record(2));
    expect(await lines(path)).toEqual([JSON.stringify({ ...record(2), prev: GENESIS_PREV })]);
    await log.close();
  });

  it("refuses a path that is not a regular file", async () => {
    const log = new AuditLog("/dev/null");
    await expect(log.open()).rejects.toThrow(/not a regular file/);
  });
});
