import { closeSync, fstatSync, fchmodSync, openSync, readFileSync, renameSync, writeFileSync, writeSync } from "node:fs";
import { ReplayCache, type ReplayStore } from "@eleven-integrations/grants";

const FILE_MODE = 0o600;
const ENTRY = /^([A-Za-z0-9_.-]{1,200}) ([0-9]{1,15})$/;

export interface ReplayJournalOptions {
  /** Unexpired confirmations held at once; a full journal refuses new ones. Default: `ReplayCache`'s. */
  maxEntries?: number;
}

/**
 * The sidecar's replay store: a `ReplayCache` whose every consumed confirmation
 * is also appended (`<gid>.<nonce> <exp>`, synchronously, before the write runs)
 * to a 0600 file, and read back when the sidecar starts again, so a confirmation
 * used just before a restart cannot run its write a second time after it.
 * Expired entries are dropped when the file is loaded.
 */
export class ReplayJournal implements ReplayStore {
  readonly path: string;
  private readonly cache: ReplayCache;
  private fd: number | undefined;

  constructor(path: string, options: ReplayJournalOptions = {}) {
    this.path = path;
    this.cache = new ReplayCache(options.maxEntries === undefined ? {} : { maxEntries: options.maxEntries });
  }

  /** Loads the unexpired entries (a torn last line is skipped), rewrites the file without the rest, and opens it for appending. */
  load(now: number = Math.floor(Date.now() / 1000)): void {
    if (this.fd !== undefined) return;
    const kept: string[] = [];
    for (const line of readExisting(this.path).split("\n")) {
      const match = ENTRY.exec(line);
      if (match === null) continue;
      const [, key = "", exp = "0"] = match;
      if (Number(exp) > now && this.cache.consume(key, Number(exp), now)) kept.push(`${line}\n`);
    }
    const fresh = `${this.path}.${process.pid}.tmp`;
    writeFileSync(fresh, kept.join(""), { mode: FILE_MODE, flag: "w" });
    renameSync(fresh, this.path);
    const fd = openSync(this.path, "a", FILE_MODE);
    if (!fstatSync(fd).isFile()) {
      closeSync(fd);
      throw new Error(`the replay journal ${this.path} is not a regular file`);
    }
    fchmodSync(fd, FILE_MODE);
    this.fd = fd;
  }

  /** True the first time `key` is seen (and then it is on disk); false for a replay or a full journal. Throws when it cannot be written. */
  consume(key: string, exp: number, now: number): boolean {
    if (this.fd === undefined) throw new Error("the replay journal is not loaded");
    if (!this.cache.consume(key, exp, now)) return false;
    const line = Buffer.from(`${key} ${exp}\n`, "utf8");
    let offset = 0;
    while (offset < line.length) offset += writeSync(this.fd, line, offset, line.length - offset);
    return true;
  }

  close(): void {
    if (this.fd === undefined) return;
    closeSync(this.fd);
    this.fd = undefined;
  }
}

function readExisting(path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return "";
    throw error;
  }
}
