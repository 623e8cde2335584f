import { closeSync, constants, fchmodSync, fdatasyncSync, fstatSync, openSync, writeSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { signAuditCheckpoint, type KeyPair } from "@eleven-integrations/grants";
import { readFileTail } from "./file-tail.js";

const FILE_MODE = 0o600;
const { O_WRONLY, O_APPEND, O_CREAT, O_NOFOLLOW } = constants;
/** Bytes read from the end of the file to find its last checkpoint; a checkpoint line is about 250 bytes. */
const TAIL_BYTES = 16 * 1024;

/** Where the checkpoints of an audit file are kept: `audit.log` (and its rotated `audit.log.<time>`) → `audit.checkpoints`, beside it. */
export function checkpointFileFor(auditFile: string): string {
  return join(dirname(auditFile), `${basename(auditFile).replace(/\.log(\..*)?$/, "")}.checkpoints`);
}

/** What a checkpoint says: after `lines` chained lines the journal's last line hashes to `head`. */
export interface JournalHead {
  lines: number;
  head: string;
}

/**
 * The signed checkpoints of one audit journal, in their own file (0600, opened
 * without following links), one JSON line each (`signAuditCheckpoint`): the line
 * count and head hash, signed with the sidecar's receipt key, so `integrations
 * audit verify` can tell a journal that lost lines from its end, or whose middle
 * was rewritten with every later hash recomputed, from the journal that was written.
 */
export class AuditCheckpoints {
  readonly path: string;
  readonly #keys: () => KeyPair;
  #fd: number | undefined;
  #last: JournalHead | undefined;
  /** The file ends in a torn line: the next checkpoint starts on a fresh one. */
  #torn = false;

  /** `keys` gives the Ed25519 key pair that signs (the receipt keys), read when a checkpoint is taken. */
  constructor(path: string, keys: () => KeyPair) {
    this.path = path;
    this.#keys = keys;
  }

  /** Opens the file for appending (created 0600) and returns its last checkpoint, undefined when it has none. */
  open(): JournalHead | undefined {
    const fd = openSync(this.path, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW, FILE_MODE);
    const stats = fstatSync(fd);
    if (!stats.isFile()) {
      closeSync(fd);
      throw new Error(`the audit checkpoints ${this.path} are not a regular file`);
    }
    // Narrowed like the audit file: nobody else reads when the journal was checked.
    if ((stats.mode & 0o777) !== FILE_MODE) fchmodSync(fd, FILE_MODE);
    this.#fd = fd;
    const { last, torn } = readLast(this.path);
    this.#last = last;
    this.#torn = torn;
    return last;
  }

  get last(): JournalHead | undefined {
    return this.#last;
  }

  /** Appends a signed checkpoint of `head` (flushed when `durable`), unless the last one says the same. */
  record(head: JournalHead, durable = false): void {
    if (this.#fd === undefined || head.lines === 0) return;
    if (this.#last !== undefined && this.#last.lines === head.lines && this.#last.head === head.head) return;
    const line = signAuditCheckpoint(head, this.#keys());
    const bytes = Buffer.from(`${this.#torn ? "\n" : ""}${line}\n`, "utf8");
    this.#torn = true;
    let offset = 0;
    while (offset < bytes.length) offset += writeSync(this.#fd, bytes, offset, bytes.length - offset);
    this.#torn = false;
    if (durable) fdatasyncSync(this.#fd);
    this.#last = { ...head };
  }

  close(): void {
    if (this.#fd === undefined) return;
    closeSync(this.#fd);
    this.#fd = undefined;
  }
}

/** The last whole checkpoint line of `path` (its `lines` and `head`, unverified: this sidecar wrote it), and whether the file ends in a torn line. */
function readLast(path: string): { last: JournalHead | undefined; torn: boolean } {
  const tail = readFileTail(path, TAIL_BYTES);
  // Opened (and created) just before: a file gone meanwhile has no checkpoint.
  if (tail === undefined) return { last: undefined, torn: false };
  const { bytes } = tail;
  const torn = bytes.length > 0 && bytes[bytes.length - 1] !== 0x0a;
  const lines = bytes.toString("utf8").split("\n");
  lines.pop();
  for (const line of lines.reverse()) {
    try {
      const { lines: count, head } = JSON.parse(line) as { lines?: unknown; head?: unknown };
      if (Number.isSafeInteger(count) && typeof head === "string") return { last: { lines: count as number, head }, torn };
    } catch {
      // a torn or foreign line: the one before it
    }
  }
  return { last: undefined, torn };
}
