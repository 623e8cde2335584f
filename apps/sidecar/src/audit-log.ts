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
  /** The answer's `status`: `ok`, `error` or `confirmation_required`. */
  status: string;
  /** The answer's error code, when it is an error. */
  code: string | null;
  /** The provider's HTTP status, when the executor got one. */
  http_status: number | null;
  duration_ms: number;
}

/** Where audit lines go; `AuditLog` is the file-backed one. */
export interface AuditSink {
  /** Resolves once the line is stored; the answer waits for it. */
  append(record: AuditRecord): Promise<void>;
}

const FILE_MODE = 0o600;

interface Waiter {
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * An append-only JSON-lines file, mode 0600. `append` resolves once its line
 * has been written to the file (`write(2)` returned, so the line survives the
 * process); lines appended while a write is in flight go out together in the
 * next write, so concurrent runs do not queue one write each.
 */
export class AuditLog implements AuditSink {
  readonly path: string;
  private handle: Promise<FileHandle> | undefined;
  private lines: string[] = [];
  private waiters: Waiter[] = [];
  private writing: Promise<void> | undefined;
  private closed = false;

  constructor(path: string) {
    this.path = path;
  }

  /** Opens (creating 0600, or narrowing to 0600) the file; refuses anything but a regular file. */
  open(): Promise<FileHandle> {
    this.handle ??= openAuditFile(this.path).catch((error: unknown) => {
      // Forgotten, so the next line tries again (a full disk may have room later).
      this.handle = undefined;
      throw error;
    });
    return this.handle;
  }

  /** Resolves once the line is in the file; rejects when it could not be written or the log is closed. */
  append(record: AuditRecord): Promise<void> {
    if (this.closed) return Promise.reject(new Error("the audit log is closed"));
    return new Promise<void>((resolve, reject) => {
      this.lines.push(`${JSON.stringify(record)}\n`);
      this.waiters.push({ resolve, reject });
      this.writing ??= this.drain();
    });
  }

  /** Waits for every appended line to be written, then closes the file. */
  async close(): Promise<void> {
    this.closed = true;
    await this.writing;
    if (this.handle !== undefined) await (await this.handle).close();
  }

  private async drain(): Promise<void> {
    while (this.lines.length > 0) {
      const text = this.lines.join("");
      const waiters = this.waiters;
      this.lines = [];
      this.waiters = [];
      try {
        const handle = await this.open();
        await handle.appendFile(text, "utf8");
        for (const waiter of waiters) waiter.resolve();
      } catch (error) {
        for (const waiter of waiters) waiter.reject(error);
      }
    }
    this.writing = undefined;
  }
}

async function openAuditFile(path: string): Promise<FileHandle> {
  const handle = await open(path, "a", FILE_MODE);
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
