import { appendFile, readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { OutcomeJournal } from "./outcome-journal.js";
import { temporaryDirectory } from "../__fixtures__/grant-kit.js";

const NOW = 1_800_000_000;
const OUTCOME = JSON.stringify({ status: "ok", http_status: 201, data: { line: "two\nlines" }, receipt: "ew1.x" });

describe("OutcomeJournal", () => {
  it("keeps an outcome across a restart in a 0600 file, one JSON line each, until it expires", async () => {
    const path = join(await temporaryDirectory(), "outcomes.log");
    const before = new OutcomeJournal(path);
    before.load(NOW);
    before.store("m:gid.n1:d", NOW + 960, OUTCOME, NOW);
    before.close();
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect((await readFile(path, "utf8")).split("\n")).toHaveLength(2);

    const after = new OutcomeJournal(path);
    after.load(NOW + 10);
    expect(after.get("m:gid.n1:d", NOW + 10)).toBe(OUTCOME);
    expect(after.get("m:gid.n1:other", NOW + 10)).toBeUndefined();
    expect(after.get("m:gid.n1:d", NOW + 960)).toBeUndefined();
    after.close();

    const later = new OutcomeJournal(path);
    later.load(NOW + 961);
    expect(later.get("m:gid.n1:d", NOW + 961)).toBeUndefined();
    later.close();
    expect(await readFile(path, "utf8")).toBe("");
  });

  it("skips a torn or damaged line and keeps the rest", async () => {
    const path = join(await temporaryDirectory(), "outcomes.log");
    const journal = new OutcomeJournal(path);
    journal.load(NOW);
    journal.store("a", NOW + 100, OUTCOME, NOW);
    journal.close();
    await appendFile(path, 'not json\n["b", 1]\n["c", ');
    const again = new OutcomeJournal(path);
    again.load(NOW);
    expect(again.get("a", NOW)).toBe(OUTCOME);
    expect(again.get("b", NOW)).toBeUndefined();
    again.close();
  });

  it("is bounded: past maxEntries the oldest is forgotten, and the file is compacted", async () => {
    const path = join(await temporaryDirectory(), "outcomes.log");
    const journal = new OutcomeJournal(path, { maxEntries: 2 });
    journal.load(NOW);
    for (const id of ["a", "b", "c", "d", "e", "f"]) journal.store(id, NOW + 100, OUTCOME, NOW);
    expect(journal.get("a", NOW)).toBeUndefined();
    expect(journal.get("e", NOW)).toBe(OUTCOME);
    expect(journal.get("f", NOW)).toBe(OUTCOME);
    journal.close();
    expect((await readFile(path, "utf8")).trim().split("\n").length).toBeLessThanOrEqual(4);
  });
});
