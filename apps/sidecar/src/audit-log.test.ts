import { chmod, mkdir, readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { AuditLog, type AuditRecord } from "./audit-log.js";
import { temporaryDirectory } from "./__fixtures__/grant-kit.js";

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
    status: "ok",
    code: null,
    http_status: 200,
    duration_ms: 1,
  };
}

async function lines(path: string): Promise<string[]> {
  return (await readFile(path, "utf8")).split("\n").filter((line) => line.length > 0);
}

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
    expect(await lines(path)).toEqual(['{"earlier":true}', JSON.stringify(record(1))]);
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
    expect(await lines(path)).toEqual([JSON.stringify(record(2))]);
    await log.close();
  });

  it("refuses a path that is not a regular file", async () => {
    const log = new AuditLog("/dev/null");
    await expect(log.open()).rejects.toThrow(/not a regular file/);
  });
});
