import { closeSync, constants, fdatasyncSync, fstatSync, fsyncSync, openSync, readFileSync, renameSync, unlinkSync, writeSync } from "node:fs";
import { dirname } from "node:path";

const FILE_MODE = 0o600;
const { O_RDONLY, O_WRONLY, O_APPEND, O_CREAT, O_EXCL, O_NOFOLLOW, O_DIRECTORY } = constants;

/** The file operations a journal uses; tests inject a failing `write` (a full disk) through it. */
export interface JournalIo {
  write(fd: number, buffer: Buffer, offset: number, length: number): number;
  sync(fd: number): void;
}

export const systemJournalIo: JournalIo = {
  write: (fd, buffer, offset, length) => writeSync(fd, buffer, offset, length),
  sync: (fd) => fdatasyncSync(fd),
};

/** Opens `path` without following a symlink (O_NOFOLLOW): a link planted in the sidecar's home is refused (ELOOP). */
export function openNoFollow(path: string, flags: number, mode: number = FILE_MODE): number {
  const fd = openSync(path, flags | O_NOFOLLOW, mode);
  try {
    if (!fstatSync(fd).isFile()) throw new Error(`${path} is not a regular file`);
    return fd;
  } catch (error) {
    closeSync(fd);
    throw error;
  }
}

/**
 * An append-only file of text lines that survives a crash or a full disk:
 * every append is written whole and flushed (`fdatasync`) before it returns;
 * a line cut short (the write failed half way, or the process died) is never
 * read back, and never swallows the next line, since after a failed append the
 * next one starts on a fresh line. Opened without following symlinks, mode 0600.
 */
export class LineJournal {
  readonly path: string;
  private readonly io: JournalIo;
  private fd: number | undefined;
  /** The last append may have left part of a line: the next one starts with a newline. */
  private torn = false;

  constructor(path: string, io: JournalIo = systemJournalIo) {
    this.path = path;
    this.io = io;
  }

  get isOpen(): boolean {
    return this.fd !== undefined;
  }

  /** The complete lines in the file (an unterminated last line is a torn write and is dropped); none when it does not exist. */
  readLines(): string[] {
    let fd: number;
    try {
      fd = openNoFollow(this.path, O_RDONLY);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
      throw error;
    }
    let text: string;
    try {
      text = readFileSync(fd, "utf8");
    } finally {
      closeSync(fd);
    }
    const lines = text.split("\n");
    lines.pop(); // "" after the last newline, or a torn line
    return lines.filter((line) => line !== "");
  }

  /** Replaces the file with `lines` (written to a new file, flushed, then renamed over it), and opens it for appending. */
  rewrite(lines: readonly string[]): void {
    this.close();
    const fresh = `${this.path}.${process.pid}.tmp`;
    try {
      unlinkSync(fresh);
    } catch {
      // not there
    }
    const fd = openNoFollow(fresh, O_WRONLY | O_CREAT | O_EXCL);
    try {
      const body = Buffer.from(lines.map((line) => `${line}\n`).join(""), "utf8");
      let offset = 0;
      while (offset < body.length) offset += writeSync(fd, body, offset, body.length - offset);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(fresh, this.path);
    syncDirectory(dirname(this.path));
    this.fd = openNoFollow(this.path, O_WRONLY | O_APPEND | O_CREAT);
    this.torn = false;
  }

  /** Appends one line and flushes it; throws (and remembers to start the next line afresh) when it cannot. */
  append(line: string): void {
    if (this.fd === undefined) throw new Error(`the journal ${this.path} is not open`);
    const buffer = Buffer.from(`${this.torn ? "\n" : ""}${line}\n`, "utf8");
    this.torn = true;
    let offset = 0;
    while (offset < buffer.length) offset += this.io.write(this.fd, buffer, offset, buffer.length - offset);
    this.io.sync(this.fd);
    this.torn = false;
  }

  close(): void {
    if (this.fd === undefined) return;
    closeSync(this.fd);
    this.fd = undefined;
  }
}

function syncDirectory(path: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(path, O_RDONLY | O_DIRECTORY);
    fsyncSync(fd);
  } catch {
    // Some file systems refuse to sync a directory; the rename is still atomic.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
