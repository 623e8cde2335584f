import { constants, fdatasyncSync, writeSync } from "node:fs";
import { open, type FileHandle } from "node:fs/promises";

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

/**
 * An append-only JSON-lines file, mode 0600. `append` resolves once its line
 * has been written to the file (`write(2)` returned: the line survives the
 * process, and the next line goes after it). The write is synchronous on
 * purpose: appending a few hundred bytes to a regular file is a page-cache copy
 * of a few microseconds, while handing it to libuv's thread pool costs ten times
 * that, and a synchronous write keeps the lines whole and in order for free.
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

  constructor(path: string, io: AuditIo = systemIo) {
    this.path = path;
    this.io = io;
  }

  /** Opens (creating 0600, or narrowing to 0600) the file; refuses anything but a regular file. */
  open(): Promise<FileHandle> {
    this.handle ??= openAuditFile(this.path).then(
      (handle) => {
        this.opened = handle;
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
    const line = `${JSON.stringify(record)}\n`;
    const durable = options.durable === true;
    if (this.opened !== undefined) return this.write(this.opened, line, durable);
    return this.open().then((handle) => this.write(handle, line, durable));
  }

  /** Refuses new lines, writes those already taken, then closes the file. */
  async close(): Promise<void> {
    this.closing = true;
    const handle = this.handle;
    // Lines taken while the file was opening continue first: they were queued on it before this.
    const opened = handle === undefined ? undefined : await handle.catch(() => undefined);
    this.closed = true;
    this.handle = undefined;
    this.opened = undefined;
    await opened?.close();
  }

  private write(handle: FileHandle, text: string, durable: boolean): Promise<void> {
    if (this.closed) return Promise.reject(new Error("the audit log is closed"));
    try {
      const line = Buffer.from(this.torn ? `\n${text}` : text, "utf8");
      this.torn = true;
      let offset = 0;
      while (offset < line.length) offset += this.io.write(handle.fd, line, offset, line.length - offset);
      this.torn = false;
      if (durable) this.io.sync(handle.fd);
      return Promise.resolve();
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
  }
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
