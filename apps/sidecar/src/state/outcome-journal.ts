import { LineJournal, type JournalIo } from "../audit/line-journal.js";

/** Outcomes held at once unless configured: past it the oldest is forgotten. */
export const DEFAULT_MAX_OUTCOMES = 10_000;

export interface OutcomeJournalOptions {
  /** Outcomes held at once; the oldest is forgotten past it (its write then answers "in progress" until its confirmation expires). */
  maxEntries?: number;
  io?: JournalIo;
}

interface Entry {
  until: number;
  outcome: string;
}

/**
 * The outcomes of confirmed writes one sidecar ran, in memory and, with a file,
 * appended to it (one JSON line `[id, until, outcome]`, flushed before the
 * answer leaves) and read back when the sidecar starts again, so the same call
 * after a restart answers the same envelope. Expired entries are dropped when
 * the file is loaded, and the file is rewritten once it holds twice as many lines
 * as entries are kept. Without a file: memory only.
 */
export class OutcomeJournal {
  private readonly entries = new Map<string, Entry>();
  private readonly file: LineJournal | undefined;
  private readonly maxEntries: number;
  private lines = 0;

  constructor(path: string | undefined, options: OutcomeJournalOptions = {}) {
    this.file = path === undefined ? undefined : new LineJournal(path, options.io);
    this.maxEntries = options.maxEntries ?? DEFAULT_MAX_OUTCOMES;
  }

  load(now: number = unixNow()): void {
    if (this.file === undefined || this.file.isOpen) return;
    for (const line of this.file.readLines()) {
      const entry = parseLine(line);
      if (entry !== undefined && entry[1] > now) this.remember(entry[0], { until: entry[1], outcome: entry[2] });
    }
    this.compact(now);
  }

  /** Keeps `outcome` under `id` until `until` (Unix seconds); flushed to the file before it returns. */
  store(id: string, until: number, outcome: string, now: number = unixNow()): void {
    this.remember(id, { until, outcome });
    if (this.file === undefined) return;
    if (!this.file.isOpen) throw new Error("the outcome journal is not loaded");
    if (this.lines >= this.maxEntries * 2) this.compact(now);
    else {
      this.file.append(JSON.stringify([id, until, outcome]));
      this.lines += 1;
    }
  }

  get(id: string, now: number = unixNow()): string | undefined {
    const entry = this.entries.get(id);
    if (entry === undefined) return undefined;
    if (entry.until <= now) {
      this.entries.delete(id);
      return undefined;
    }
    return entry.outcome;
  }

  close(): void {
    this.file?.close();
  }

  private remember(id: string, entry: Entry): void {
    this.entries.delete(id);
    this.entries.set(id, entry);
    while (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
  }

  private compact(now: number): void {
    if (this.file === undefined) return;
    const kept: string[] = [];
    for (const [id, entry] of this.entries) if (entry.until > now) kept.push(JSON.stringify([id, entry.until, entry.outcome]));
    this.file.rewrite(kept);
    this.lines = kept.length;
  }
}

function parseLine(line: string): [string, number, string] | undefined {
  try {
    const value: unknown = JSON.parse(line);
    if (Array.isArray(value) && value.length === 3 && typeof value[0] === "string" && Number.isSafeInteger(value[1]) && typeof value[2] === "string") {
      return [value[0], value[1] as number, value[2]];
    }
  } catch {
    // a damaged line is skipped
  }
  return undefined;
}

function unixNow(): number {
  return Math.floor(Date.now() / 1000);
}
