import { readFile, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { systemJournalIo, type JournalIo } from "./line-journal.js";
import { ReplayJournal } from "../state/replay-journal.js";
import { temporaryDirectory } from "../__fixtures__/grant-kit.js";

const NOW = 1_800_000_000;
const EXP = NOW + 300;

/** A disk that fills up: once `full`, a write stores `room` bytes of what it is given, then fails with ENOSPC. */
function fillingDisk(): JournalIo & { full: boolean; room: number; syncs: number } {
  const disk = {
    full: false,
    room: 0,
    syncs: 0,
    write(fd: number, buffer: Buffer, offset: number, length: number): number {
      if (!disk.full) return systemJournalIo.write(fd, buffer, offset, length);
      if (disk.room > 0) {
        const written = systemJournalIo.write(fd, buffer, offset, Math.min(length, disk.room));
        disk.room -= written;
        return written;
      }
      throw Object.assign(new Error("ENOSPC: no space left on device"), { code: "ENOSPC" });
    },
    sync(fd: number): void {
      disk.syncs += 1;
      systemJournalIo.sync(fd);
    },
  };
  return disk;
}

describe("the replay journal on a full disk or after a crash", () => {
  it("flushes every consumed key before it counts", async () => {
    const disk = fillingDisk();
    const journal = new ReplayJournal(join(await temporaryDirectory(), "replay.log"), { io: disk });
    journal.load(NOW);
    journal.consume("gid.a", EXP, NOW);
    journal.consume("gid.b", EXP, NOW);
    expect(disk.syncs).toBe(2);
    journal.close();
  });

  it("never revives a consumed confirmation after a torn line", async () => {
    const path = join(await temporaryDirectory(), "replay.log");
    const disk = fillingDisk();
    const journal = new ReplayJournal(path, { io: disk });
    journal.load(NOW);
    expect(journal.consume("before.torn", EXP, NOW)).toBe(true);
    // The disk fills half way through a line: the consume fails, so its write never runs.
    disk.full = true;
    disk.room = 5;
    expect(() => journal.consume("torn.line", EXP, NOW)).toThrow(/ENOSPC/);
    // Space again: the next key must not be swallowed by the torn line before it.
    disk.full = false;
    expect(journal.consume("after.torn", EXP, NOW)).toBe(true);
    journal.close();
    expect(await readFile(path, "utf8")).toBe(`before.torn ${EXP}\ntorn.\nafter.torn ${EXP}\n`);

    // A restart: every key that was acknowledged is still consumed.
    const restarted = new ReplayJournal(path);
    restarted.load(NOW + 1);
    expect(restarted.consume("before.torn", EXP, NOW + 1)).toBe(false);
    expect(restarted.consume("after.torn", EXP, NOW + 1)).toBe(false);
    restarted.close();
  });

  it("drops a line a crash cut short at the end of the file, keeping the lines before it", async () => {
    const path = join(await temporaryDirectory(), "replay.log");
    await writeFile(path, `whole.key ${EXP}\ncut.key ${String(EXP).slice(0, 4)}`, { mode: 0o600 });
    const journal = new ReplayJournal(path);
    journal.load(NOW);
    expect(await readFile(path, "utf8")).toBe(`whole.key ${EXP}\n`);
    expect(journal.consume("whole.key", EXP, NOW)).toBe(false);
    // The next line starts on its own line.
    expect(journal.consume("next.key", EXP, NOW)).toBe(true);
    journal.close();
    expect(await readFile(path, "utf8")).toBe(`whole.key ${EXP}\nnext.key ${EXP}\n`);
  });

  it("keeps the key consumed in memory when it cannot be written, so the confirmation is refused rather than run unrecorded", async () => {
    const disk = fillingDisk();
    const journal = new ReplayJournal(join(await temporaryDirectory(), "replay.log"), { io: disk });
    journal.load(NOW);
    disk.full = true;
    expect(() => journal.consume("gid.x", EXP, NOW)).toThrow(/ENOSPC/);
    disk.full = false;
    expect(journal.consume("gid.x", EXP, NOW)).toBe(false);
    journal.close();
  });

  it("refuses a journal that is a symbolic link", async () => {
    const dir = await temporaryDirectory();
    await writeFile(join(dir, "elsewhere"), "", { mode: 0o600 });
    await symlink(join(dir, "elsewhere"), join(dir, "replay.log"));
    const journal = new ReplayJournal(join(dir, "replay.log"));
    expect(() => journal.load(NOW)).toThrow(/ELOOP|symbolic/);
  });
});
