import { ReplayCache, type ReplayStore } from "@eleven-integrations/grants";
import { LineJournal, type JournalIo } from "../audit/line-journal.js";

const ENTRY = /^([A-Za-z0-9_.-]{1,200}) ([0-9]{1,15})$/;

export interface ReplayJournalOptions {
  /** Unexpired confirmations held at once; a full journal refuses new ones. Default: `ReplayCache`'s. */
  maxEntries?: number;
  /** File operations; tests inject failures. */
  io?: JournalIo;
}

/**
 * The sidecar's replay store: a `ReplayCache` whose every consumed confirmation
 * is also appended (`<gid>.<nonce> <exp>`, flushed to disk before the write
 * runs) to a 0600 file, and read back when the sidecar starts again, so a
 * confirmation used just before a restart cannot run its write a second time
 * after it. Expired entries are dropped when the file is loaded. A line cut
 * short by a full disk or a crash is dropped too, and never swallows the next
 * one: its consume threw, so its write never ran.
 */
export class ReplayJournal implements ReplayStore {
  readonly path: string;
  private readonly cache: ReplayCache;
  private readonly file: LineJournal;

  constructor(path: string, options: ReplayJournalOptions = {}) {
    this.path = path;
    this.cache = new ReplayCache(options.maxEntries === undefined ? {} : { maxEntries: options.maxEntries });
    this.file = new LineJournal(path, options.io);
  }

  /** Loads the unexpired entries (a torn line is skipped), rewrites the file without the rest, and opens it for appending. */
  load(now: number = Math.floor(Date.now() / 1000)): void {
    if (this.file.isOpen) return;
    const kept: string[] = [];
    for (const line of this.file.readLines()) {
      const match = ENTRY.exec(line);
      if (match === null) continue;
      const [, key = "", exp = "0"] = match;
      if (Number(exp) > now && this.cache.consume(key, Number(exp), now)) kept.push(line);
    }
    this.file.rewrite(kept);
  }

  /**
   * True the first time `key` is seen, and then it is flushed to disk; false for
   * a replay or a full journal. Throws when it cannot be written: the key stays
   * consumed in memory, so the confirmation is refused rather than run unrecorded.
   */
  consume(key: string, exp: number, now: number): boolean {
    if (!this.file.isOpen) throw new Error("the replay journal is not loaded");
    if (!this.cache.consume(key, exp, now)) return false;
    this.file.append(`${key} ${exp}`);
    return true;
  }

  close(): void {
    this.file.close();
  }
}
