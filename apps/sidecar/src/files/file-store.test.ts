import { createHash } from "node:crypto";
import { mkdtemp, readdir, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FileStore, FileStoreError, type StoredFileMeta } from "./file-store.js";

let home: string;
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), "sidecar-files-"));
});
afterEach(() => rm(home, { recursive: true, force: true }));

function meta(bytes: Buffer, name = "report.pdf"): StoredFileMeta {
  return { name, size: bytes.length, content_type: "application/pdf", sha256: createHash("sha256").update(bytes).digest("hex") };
}

describe("the sidecar's file folder", () => {
  it("keeps a file under its SHA-256, mode 0600 in a 0700 folder, and gives it back by its hash", async () => {
    const dir = join(home, "files");
    const store = new FileStore({ dir });
    const bytes = Buffer.from("%PDF-1.7 hello");
    const answered = await store.put(meta(bytes), bytes);
    expect(answered).toEqual(meta(bytes));
    expect((await stat(join(dir, answered.sha256))).mode & 0o777).toBe(0o600);
    expect((await stat(join(dir, `${answered.sha256}.json`))).mode & 0o777).toBe(0o600);
    expect((await stat(dir)).mode & 0o777).toBe(0o700);
    const got = await store.get(answered.sha256);
    expect(got?.meta).toEqual(meta(bytes));
    expect(got?.bytes.equals(bytes)).toBe(true);
  });

  it("forgets a file after its time, and removes it at the next sweep", async () => {
    let now = 1_000_000;
    const dir = join(home, "files");
    const store = new FileStore({ dir, ttlMs: 60_000, now: () => now });
    const bytes = Buffer.from("old");
    await store.put(meta(bytes), bytes);
    now += 60_001;
    expect(await store.get(meta(bytes).sha256)).toBeUndefined();
    await store.sweep();
    expect(await readdir(dir)).toEqual([]);
  });

  it("stays under its size cap: the oldest files go first, the newest stays", async () => {
    let now = 0;
    const dir = join(home, "files");
    const store = new FileStore({ dir, maxBytes: 10, now: () => now });
    const files = ["aaaa", "bbbb", "cccc"].map((text) => Buffer.from(text));
    for (const bytes of files) {
      now += 1;
      await store.put(meta(bytes), bytes);
    }
    expect(await store.get(meta(files[0] as Buffer).sha256)).toBeUndefined();
    expect(await store.get(meta(files[1] as Buffer).sha256)).toBeDefined();
    expect(await store.get(meta(files[2] as Buffer).sha256)).toBeDefined();
  });

  it("refuses a file larger than the whole store, and bytes that do not match their hash", async () => {
    const store = new FileStore({ dir: join(home, "files"), maxBytes: 4 });
    const big = Buffer.from("12345");
    await expect(store.put(meta(big), big)).rejects.toBeInstanceOf(FileStoreError);
    const bytes = Buffer.from("abc");
    await expect(store.put({ ...meta(bytes), sha256: "0".repeat(64) }, bytes)).rejects.toThrow(/do not match/);
  });

  it("a file changed on disk, or a name that is not a hash, gives nothing", async () => {
    const dir = join(home, "files");
    const store = new FileStore({ dir });
    const bytes = Buffer.from("original");
    const { sha256 } = await store.put(meta(bytes), bytes);
    await writeFile(join(dir, sha256), "tampered");
    expect(await store.get(sha256)).toBeUndefined();
    for (const name of ["../secret", `${sha256}.json`, sha256.toUpperCase(), ""]) expect(await store.get(name)).toBeUndefined();
  });
});
