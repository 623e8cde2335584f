import { createHash, randomBytes } from "node:crypto";
import { mkdir, open, readFile, readdir, rename, rm, stat } from "node:fs/promises";
import { join } from "node:path";

/** What the sidecar answers about a file it keeps: never its bytes. */
export interface StoredFileMeta {
  readonly name: string;
  readonly size: number;
  readonly content_type: string;
  readonly sha256: string;
}

export interface StoredFile {
  readonly meta: StoredFileMeta;
  readonly bytes: Buffer;
}

export interface FileStoreOptions {
  /** The folder files are kept in (`<home>/files`), created 0700. */
  readonly dir: string;
  /** The most bytes the folder holds; the oldest files go first past it. Default 256 MiB. */
  readonly maxBytes?: number;
  /** How long a file is kept after it was last stored. Default one hour. */
  readonly ttlMs?: number;
  readonly now?: () => number;
}

export const DEFAULT_FILE_STORE_BYTES = 256 * 1024 * 1024;
export const DEFAULT_FILE_TTL_MS = 60 * 60 * 1000;

const SHA256_HEX = /^[0-9a-f]{64}$/;

/** A file the store cannot keep (larger than the whole store). */
export class FileStoreError extends Error {
  readonly code = "file_too_large" as const;
}

/**
 * The sidecar's upload and download folder: each file under its SHA-256 (`<sha256>` with its
 * metadata beside it in `<sha256>.json`), mode 0600, removed once older than the TTL or when
 * the folder passes its size cap (oldest first). A later run names a file by its `sha256`.
 */
export class FileStore {
  readonly #dir: string;
  readonly #maxBytes: number;
  readonly #ttlMs: number;
  readonly #now: () => number;

  constructor(options: FileStoreOptions) {
    this.#dir = options.dir;
    this.#maxBytes = options.maxBytes ?? DEFAULT_FILE_STORE_BYTES;
    this.#ttlMs = options.ttlMs ?? DEFAULT_FILE_TTL_MS;
    this.#now = options.now ?? Date.now;
  }

  /** Keeps the bytes (checked against `meta.sha256`) and answers their metadata. */
  async put(meta: StoredFileMeta, bytes: Buffer): Promise<StoredFileMeta> {
    const sha256 = createHash("sha256").update(bytes).digest("hex");
    if (sha256 !== meta.sha256 || bytes.length !== meta.size) throw new Error("the file's bytes do not match its metadata");
    if (bytes.length > this.#maxBytes) throw new FileStoreError(`the file is larger than the ${this.#maxBytes} bytes the sidecar keeps`);
    await mkdir(this.#dir, { recursive: true, mode: 0o700 });
    await this.#write(sha256, bytes);
    await this.#write(`${sha256}.json`, Buffer.from(JSON.stringify({ ...meta, stored_at: this.#now() })));
    await this.sweep(sha256);
    return meta;
  }

  /** The file stored under `sha256`, when it is still kept and its bytes still hash to it. */
  async get(sha256: string): Promise<StoredFile | undefined> {
    if (!SHA256_HEX.test(sha256)) return undefined;
    try {
      const record = JSON.parse(await readFile(join(this.#dir, `${sha256}.json`), "utf8")) as StoredFileMeta & { stored_at: number };
      if (this.#now() - record.stored_at > this.#ttlMs) return undefined;
      const bytes = await readFile(join(this.#dir, sha256));
      if (createHash("sha256").update(bytes).digest("hex") !== sha256) return undefined;
      const { name, size, content_type } = record;
      return { meta: { name, size, content_type, sha256 }, bytes };
    } catch {
      return undefined;
    }
  }

  /** Removes expired files, then the oldest until the folder fits its cap (`keep` last of all). */
  async sweep(keep?: string): Promise<void> {
    let names: string[];
    try {
      names = await readdir(this.#dir);
    } catch {
      return;
    }
    const files: { sha256: string; storedAt: number; size: number }[] = [];
    for (const name of names) {
      if (!SHA256_HEX.test(name)) {
        // A temporary file left by a crash, or metadata whose file is gone.
        if (name.endsWith(".tmp") || (name.endsWith(".json") && !names.includes(name.slice(0, -5)))) await rm(join(this.#dir, name), { force: true });
        continue;
      }
      const storedAt = await this.#storedAt(name);
      const size = await stat(join(this.#dir, name)).then(
        (info) => info.size,
        () => 0,
      );
      if (storedAt === undefined || this.#now() - storedAt > this.#ttlMs) await this.#remove(name);
      else files.push({ sha256: name, storedAt, size });
    }
    files.sort((a, b) => (a.sha256 === keep ? 1 : b.sha256 === keep ? -1 : a.storedAt - b.storedAt));
    let total = files.reduce((sum, file) => sum + file.size, 0);
    for (const file of files) {
      if (total <= this.#maxBytes) break;
      await this.#remove(file.sha256);
      total -= file.size;
    }
  }

  async #storedAt(sha256: string): Promise<number | undefined> {
    try {
      const record = JSON.parse(await readFile(join(this.#dir, `${sha256}.json`), "utf8")) as { stored_at?: unknown };
      return typeof record.stored_at === "number" ? record.stored_at : undefined;
    } catch {
      return undefined;
    }
  }

  async #remove(sha256: string): Promise<void> {
    await rm(join(this.#dir, sha256), { force: true });
    await rm(join(this.#dir, `${sha256}.json`), { force: true });
  }

  /** Written whole to a temporary file (0600, never followed through a link) and renamed into place. */
  async #write(name: string, bytes: Buffer): Promise<void> {
    const temporary = join(this.#dir, `${name}.${randomBytes(6).toString("hex")}.tmp`);
    const handle = await open(temporary, "wx", 0o600);
    try {
      await handle.writeFile(bytes);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, join(this.#dir, name));
  }
}
