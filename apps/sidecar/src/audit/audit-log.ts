import { closeSync, constants, existsSync, fdatasyncSync, fstatSync, openSync, renameSync, writeSync } from "node:fs";
import { open, type FileHandle } from "node:fs/promises";
import { chainHead, lineHash, rotatedName } from "./audit-chain.js";
import type { AuditCheckpoints } from "./audit-checkpoints.js";
import { countChainedLines, linesAfter, prevOf, tornTail } from "./journal-scan.js";

/** One line of the audit file: what ran, for whom, and how it ended. Never a token, arg value or response body. */
export interface AuditRecord {
  /** ISO 8601, UTC, when the answer was decided. */
  time: string;
  /** Random id of this line. */
  audit_id: string;
  gid: string | null;
  /** The granting member's public key. */
  member: string | null;
  integration: string | null;
  op: string | null;
  /** The op's access. */
  access: "read" | "write" | null;
  args_digest: string | null;
  /** The account the grant's credential acts as (`{ id, name }`), when the grant names it. */
  account: { id: string; name: string } | null;
  /** The answer's `status`: `ok`, `error` or `confirmation_required`; `started` for the line a write gets before it is sent; `revoked` for a recorded revocation. */
  status: string;
  /** The answer's error code, when it is an error. */
  code: string | null;
  /** The provider's HTTP status, when the executor got one. */
  http_status: number | null;
  duration_ms: number;
  /** Present on the line of a confirmed write's stored outcome answered again: nothing was sent. */
  replayed?: true;
  /** The standing approval (`ea1.`'s `aid`) a write ran under instead of a tap. */
  aid?: string;
  /** The preview line a write under a standing approval read before it ran: what the member would have seen on a chip (rendered and neutralised, never a body). */
  preview?: string;
}

/** A line as the file holds it: the record and `prev`, the hex SHA-256 of the line before it (see audit-chain.ts). */
export type ChainedAuditRecord = AuditRecord & { prev: string };

export interface AuditLogOptions {
  /** The file operations (tests inject a failing write). */
  io?: AuditIo;
  /**
   * Rotate when a line would take the file past this many bytes: the file is renamed
   * `<file>.<UTC time>` and a fresh one started whose first line's `prev` is the hash
   * of the renamed file's last line. Unset: never rotated.
   */
  rotateBytes?: number;
  /**
   * Signed checkpoints of the journal's head (line count and last hash), kept apart
   * from it: one at open, after every durable line, at most `checkpointEveryMs` after
   * any other line, and at close. Unset: none.
   */
  checkpoints?: AuditCheckpoints;
  /** Longest wait between a line that need not be flushed and the checkpoint that covers it; default 1 000 ms. */
  checkpointEveryMs?: number;
}

/** The line that says a line was cut short by a crash: its bytes stay in the file, covered by this line's hash. */
export interface RepairRecord {
  kind: "repair";
  time: string;
  /** The length of the torn line, in bytes, without the line feed the repair added. */
  torn_bytes: number;
  /** Hex SHA-256 of the torn line's bytes. */
  torn_sha256: string;
}

/** What the journal's start found against its last checkpoint: lines it had recorded are gone or changed. */
export interface CheckpointMismatch {
  /** The last checkpoint's line count and head. */
  recorded: { lines: number; head: string };
  /** The journal's line count and head now. */
  found: { lines: number; head: string };
}

export interface AppendOptions {
  /** Flush the line to the disk (`fdatasync`) before resolving: a write's lines survive a power cut. */
  durable?: boolean;
}

/** Where audit lines go; `AuditLog` is the file-backed one. */
export interface AuditSink {
  /** Resolves once the line is stored (and flushed, when `durable`); the answer waits for it. */
  append(record: AuditRecord, options?: AppendOptions): Promise<void>;
}

/** The file operations the audit log uses; tests inject a failing write (a full disk) through it. */
export interface AuditIo {
  write(fd: number, buffer: Buffer, offset: number, length: number): number;
  sync(fd: number): void;
}

const systemIo: AuditIo = {
  write: (fd, buffer, offset, length) => writeSync(fd, buffer, offset, length),
  sync: (fd) => fdatasyncSync(fd),
};

const FILE_MODE = 0o600;
const { O_WRONLY, O_APPEND, O_CREAT, O_NOFOLLOW } = constants;

/** The lines taken since the last write to the file, and the callers waiting for them. */
interface PendingLines {
  texts: string[];
  waiting: { resolve: () => void; reject: (error: Error) => void }[];
}

/**
 * An append-only JSON-lines file, mode 0600. `append` resolves once its line
 * has been written to the file (`write(2)` returned: the line survives the
 * process, and the next line goes after it). Lines are written synchronously
 * and in order. A line that need not be flushed (a read's) waits for the end of
 * the current turn of the event loop, and every line taken in that turn goes to
 * the file in one `write(2)` (group commit): at the sidecar's load that is one
 * system call for several answers instead of one each, and no answer leaves
 * before its line is in the file. A `durable` line is written at once, with any
 * lines still waiting before it, and flushed (`fdatasync`) before it resolves.
 */
export class AuditLog implements AuditSink {
  readonly path: string;
  private handle: Promise<FileHandle> | undefined;
  private opened: FileHandle | undefined;
  /** No new lines are taken. */
  private closing = false;
  /** The file is closed: lines still waiting for it to open are refused. */
  private closed = false;
  /** A write failed part way: the next line starts on a fresh line, so the torn one never swallows it. */
  private torn = false;
  private readonly io: AuditIo;
  private readonly rotateBytes: number | undefined;
  /** The hash of the last line taken (the next line's `prev`), read from the file(s) when it opens. */
  private prev = "";
  /** The hash of the last line in the file: where `prev` goes back to when a write fails. */
  private writtenPrev = "";
  /** The file's size as this log wrote it, for rotation. */
  private size = 0;
  /** The descriptor lines go to: the opened handle's, or a rotated-in file's. */
  private fd: number | undefined;
  /** Descriptors of files opened by rotation, closed with the log. */
  private rotatedFd: number | undefined;
  /** Lines taken this turn and not yet written; written together at its end. */
  private pending: PendingLines = { texts: [], waiting: [] };
  private flushScheduled = false;
  private readonly checkpoints: AuditCheckpoints | undefined;
  private readonly checkpointEveryMs: number;
  private checkpointTimer: NodeJS.Timeout | undefined;
  /** Chained lines in the journal (rotated files included), as the checkpoints count them. */
  private lineCount = 0;
  /** Set at open when the journal no longer holds what its last checkpoint recorded. */
  private mismatch: CheckpointMismatch | undefined;

  constructor(path: string, options: AuditLogOptions | AuditIo = {}) {
    this.path = path;
    const settings: AuditLogOptions = "write" in options ? { io: options } : options;
    this.io = settings.io ?? systemIo;
    this.rotateBytes = settings.rotateBytes;
    this.checkpoints = settings.checkpoints;
    this.checkpointEveryMs = settings.checkpointEveryMs ?? 1000;
  }

  /** How many chained lines the journal holds (counted at open from the last checkpoint, then as lines are written); with checkpoints only. */
  get lines(): number {
    return this.lineCount;
  }

  /** What open found when the journal no longer held its last checkpoint's head (lines removed or changed), else undefined. */
  get checkpointMismatch(): CheckpointMismatch | undefined {
    return this.mismatch;
  }

  /** The hash of the last line written: what `integrations audit verify` prints for this file. */
  get head(): string {
    return this.writtenPrev;
  }

  /** Opens (creating 0600, or narrowing to 0600) the file; refuses anything but a regular file. */
  open(): Promise<FileHandle> {
    this.handle ??= openAuditFile(this.path).then(
      (handle) => {
        repairTornLine(this.path, handle.fd, this.io);
        this.prev = chainHead(this.path);
        this.writtenPrev = this.prev;
        this.size = fstatSync(handle.fd).size;
        this.fd = handle.fd;
        this.opened = handle;
        this.countLines();
        return handle;
      },
      (error: unknown) => {
        // Forgotten, so the next line tries again (a missing directory may exist later).
        this.handle = undefined;
        throw error;
      },
    );
    return this.handle;
  }

  /** Resolves once the line is in the file; rejects when it could not be written or the log is closed. */
  append(record: AuditRecord, options: AppendOptions = {}): Promise<void> {
    if (this.closing) return Promise.reject(new Error("the audit log is closed"));
    const durable = options.durable === true;
    if (this.opened !== undefined) return this.take(record, durable);
    return this.open().then(() => this.take(record, durable));
  }

  /** Refuses new lines, writes those already taken, then closes the file. */
  async close(): Promise<void> {
    this.closing = true;
    const handle = this.handle;
    // Lines taken while the file was opening continue first: they were queued on it before this.
    const opened = handle === undefined ? undefined : await handle.catch(() => undefined);
    this.flush();
    if (this.checkpointTimer !== undefined) clearTimeout(this.checkpointTimer);
    this.checkpointTimer = undefined;
    if (opened !== undefined) this.checkpoint(true);
    this.checkpoints?.close();
    this.closed = true;
    this.handle = undefined;
    this.opened = undefined;
    this.fd = undefined;
    if (this.rotatedFd !== undefined) closeSync(this.rotatedFd);
    this.rotatedFd = undefined;
    await opened?.close();
  }

  /** Chains the line now (its place in the file is fixed here), then writes it with its turn's lines, or at once when durable. */
  private take(record: AuditRecord, durable: boolean): Promise<void> {
    if (this.closed || this.fd === undefined) return Promise.reject(new Error("the audit log is closed"));
    let text: string;
    try {
      text = chainedLine(record, this.prev);
    } catch (error) {
      return Promise.reject(asError(error));
    }
    this.prev = lineHash(text);
    const done = new Promise<void>((resolve, reject) => {
      this.pending.texts.push(text);
      this.pending.waiting.push({ resolve, reject });
    });
    if (durable) this.flush(true);
    else if (!this.flushScheduled) {
      this.flushScheduled = true;
      setImmediate(() => this.flush());
    }
    return done;
  }

  /** Writes every line taken so far in one go (and flushes the file when `durable`), then settles their appends. */
  private flush(durable = false): void {
    this.flushScheduled = false;
    const { texts, waiting } = this.pending;
    if (texts.length === 0) return;
    this.pending = { texts: [], waiting: [] };
    try {
      if (this.fd === undefined) throw new Error("the audit log is closed");
      this.writeLines(texts);
      this.writtenPrev = this.prev;
      this.lineCount += texts.length;
      if (durable) this.io.sync(this.fd);
      if (durable) this.checkpoint(false);
      else this.scheduleCheckpoint();
    } catch (error) {
      // None of these lines counts as written: the next line chains from the last one that is in the file.
      this.prev = this.writtenPrev;
      for (const appended of waiting) appended.reject(asError(error));
      return;
    }
    for (const appended of waiting) appended.resolve();
  }

  /**
   * The journal's line count at open: the last checkpoint's, plus the lines written after
   * the line it names. When the journal no longer holds that line (lines removed from its
   * end, or a changed line whose later hashes were recomputed), the lines are counted
   * again and the mismatch kept for the log; the old checkpoint stays in its file, where
   * `integrations audit verify` finds it. A checkpoint of the journal as it is follows.
   */
  private countLines(): void {
    // Without checkpoints nothing reads the count: the journal is not scanned.
    if (this.checkpoints === undefined) return;
    const recorded = this.checkpoints.open();
    const head = this.writtenPrev;
    if (recorded === undefined) this.lineCount = countChainedLines(this.path);
    else if (recorded.head === head) this.lineCount = recorded.lines;
    else {
      const after = linesAfter(this.path, recorded.head);
      if (after !== undefined) this.lineCount = recorded.lines + after;
      else {
        this.lineCount = countChainedLines(this.path);
        this.mismatch = { recorded, found: { lines: this.lineCount, head } };
      }
    }
    this.checkpoint(true);
  }

  /** Signs a checkpoint of the journal as written (flushed when `durable`); a failure to write it is not the line's. */
  private checkpoint(durable: boolean): void {
    if (this.checkpoints === undefined || this.lineCount === 0) return;
    try {
      this.checkpoints.record({ lines: this.lineCount, head: this.writtenPrev }, durable);
    } catch {
      // The next checkpoint covers these lines too; verify tells a journal ahead of its checkpoints from a shortened one.
    }
  }

  private scheduleCheckpoint(): void {
    if (this.checkpoints === undefined || this.checkpointTimer !== undefined) return;
    this.checkpointTimer = setTimeout(() => {
      this.checkpointTimer = undefined;
      if (!this.closed) this.checkpoint(false);
    }, this.checkpointEveryMs);
    this.checkpointTimer.unref();
  }

  /** Appends whole lines to the file, rotating it first wherever a line would take it past `rotateBytes`. */
  private writeLines(texts: readonly string[]): void {
    let chunk = this.torn ? "\n" : "";
    let chunkBytes = chunk.length;
    for (const text of texts) {
      const length = Buffer.byteLength(text) + 1;
      if (this.rotateBytes !== undefined && this.size + chunkBytes > 0 && this.size + chunkBytes + length > this.rotateBytes) {
        this.writeChunk(chunk);
        this.rotate();
        chunk = "";
        chunkBytes = 0;
      }
      chunk += `${text}\n`;
      chunkBytes += length;
    }
    this.writeChunk(chunk);
  }

  private writeChunk(chunk: string): void {
    if (chunk.length === 0) return;
    const bytes = Buffer.from(chunk, "utf8");
    const fd = this.fd as number;
    this.torn = true;
    let offset = 0;
    while (offset < bytes.length) offset += this.io.write(fd, bytes, offset, bytes.length - offset);
    this.torn = false;
    this.size += bytes.length;
  }

  /** Renames the full file aside and continues in a fresh one; the chain carries over through `prev`. */
  private rotate(): void {
    const aside = rotatedName(this.path, new Date(), existsSync);
    renameSync(this.path, aside);
    const fd = openSync(this.path, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW, FILE_MODE);
    if (this.rotatedFd !== undefined) closeSync(this.rotatedFd);
    this.rotatedFd = fd;
    this.fd = fd;
    this.size = 0;
    this.torn = false;
  }
}

/** The record as one JSON line with `prev` last: `JSON.stringify({ ...record, prev })`, without copying the record. */
function chainedLine(record: AuditRecord, prev: string): string {
  if (Object.hasOwn(record, "prev")) return JSON.stringify({ ...record, prev });
  const text = JSON.stringify(record);
  return `${text.slice(0, -1)},"prev":${JSON.stringify(prev)}}`;
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

async function openAuditFile(path: string): Promise<FileHandle> {
  // Never through a symlink planted where the log should be (O_NOFOLLOW: ELOOP).
  const handle = await open(path, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW, FILE_MODE);
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) throw new Error(`the audit log ${path} is not a regular file`);
    if ((stats.mode & 0o777) !== FILE_MODE) await handle.chmod(FILE_MODE);
    return handle;
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/**
 * A line a crash cut short at the end of the file (no line feed) is ended, and followed
 * by a repair line chained to the last whole line before it (`{ kind: "repair", torn_bytes,
 * torn_sha256 }`), flushed: the next line starts on a line of its own, and the torn bytes
 * stay where they were, covered by the repair line's hash. A cut that left a whole
 * chained line (only its line feed missing) is just ended.
 */
function repairTornLine(path: string, fd: number, io: AuditIo): void {
  const torn = tornTail(path);
  if (torn === undefined) return;
  const before = chainHead(path);
  let text = "\n";
  if (prevOf(torn) !== before) {
    const repair: RepairRecord = { kind: "repair", time: new Date().toISOString(), torn_bytes: torn.length, torn_sha256: lineHash(torn) };
    text += `${JSON.stringify({ ...repair, prev: before })}\n`;
  }
  const bytes = Buffer.from(text, "utf8");
  let offset = 0;
  while (offset < bytes.length) offset += io.write(fd, bytes, offset, bytes.length - offset);
  io.sync(fd);
}
