import { readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ReplayJournal } from "./replay-journal.js";
import { temporaryDirectory } from "../__fixtures__/grant-kit.js";

const NOW = 1_800_000_000;

describe("ReplayJournal", () => {
  it("consumes a key once and keeps it on disk in a 0600 file", async () => {
    const path = join(await temporaryDirectory(), "replay.log");
    const journal = new ReplayJournal(path);
    journal.load(NOW);
    expect(journal.consume("gid.nonce1", NOW + 300, NOW)).toBe(true);
    expect(journal.consume("gid.nonce1", NOW + 300, NOW)).toBe(false);
    journal.close();
    expect(await readFile(path, "utf8")).toBe(`gid.nonce1 ${NOW + 300}\n`);
    expect((await stat(path)).mode & 0o777).toBe(0o600);
  });

  it("still refuses, after a restart, a key consumed before it", async () => {
    const path = join(await temporaryDirectory(), "replay.log");
    const before = new ReplayJournal(path);
    before.load(NOW);
    before.consume("gid.nonce1", NOW + 300, NOW);
    before.close();
    const after = new ReplayJournal(path);
    after.load(NOW + 10);
    expect(after.consume("gid.nonce1", NOW + 300, NOW + 10)).toBe(false);
    expect(after.consume("gid.nonce2", NOW + 300, NOW + 10)).toBe(true);
    after.close();
  });

  it("drops expired entries and torn lines when it loads", async () => {
    const path = join(await temporaryDirectory(), "replay.log");
    await writeFile(path, `old.key ${NOW - 1}\nlive.key ${NOW + 100}\ntorn.ke`, { mode: 0o644 });
    const journal = new ReplayJournal(path);
    journal.load(NOW);
    expect(await readFile(path, "utf8")).toBe(`live.key ${NOW + 100}\n`);
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect(journal.consume("old.key", NOW + 300, NOW)).toBe(true);
    expect(journal.consume("live.key", NOW + 300, NOW)).toBe(false);
    journal.close();
  });

  it("refuses to consume before it is loaded", async () => {
    const journal = new ReplayJournal(join(await temporaryDirectory(), "replay.log"));
    expect(() => journal.consume("k", NOW + 1, NOW)).toThrow(/not loaded/);
  });

  it("refuses new keys when full rather than forget a live one", async () => {
    const journal = new ReplayJournal(join(await temporaryDirectory(), "replay.log"), { maxEntries: 1 });
    journal.load(NOW);
    expect(journal.consume("a.1", NOW + 300, NOW)).toBe(true);
    expect(journal.consume("b.2", NOW + 300, NOW)).toBe(false);
    journal.close();
  });
});
