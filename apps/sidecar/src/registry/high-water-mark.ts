import { constants } from "node:fs";
import { open, readFile, rename } from "node:fs/promises";

/** The newest release a sidecar has ever run: its sequence and registry hash. */
export interface HighWater {
  sequence: number;
  hash: string;
}

/**
 * The highest release sequence this sidecar accepted, kept in its own file
 * (`registry-high-water`, 0600), apart from the release cache: deleting or
 * spoiling the cache (or the broker serving an older signed release) cannot
 * bring back a release older than one already run. Written (temporary file,
 * then rename) before a newer release is swapped in.
 */
export class HighWaterMark {
  readonly path: string;
  #mark: HighWater | undefined;

  constructor(path: string) {
    this.path = path;
  }

  get mark(): HighWater | undefined {
    return this.#mark;
  }

  /** Reads the file; a missing or unreadable one is no mark (the embedded sequence still holds). */
  async load(): Promise<HighWater | undefined> {
    try {
      const parsed = JSON.parse(await readFile(this.path, "utf8")) as Partial<HighWater>;
      if (Number.isSafeInteger(parsed.sequence) && typeof parsed.hash === "string") this.#mark = { sequence: parsed.sequence as number, hash: parsed.hash };
    } catch {
      // absent or torn: no mark
    }
    return this.#mark;
  }

  /** Records `release` when it is above the mark; flushed and renamed into place. */
  async raise(release: HighWater): Promise<void> {
    if (this.#mark !== undefined && release.sequence <= this.#mark.sequence) return;
    const temporary = `${this.path}.tmp`;
    const handle = await open(temporary, constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NOFOLLOW, 0o600);
    try {
      await handle.writeFile(`${JSON.stringify(release)}\n`);
      await handle.datasync();
    } finally {
      await handle.close();
    }
    await rename(temporary, this.path);
    this.#mark = { ...release };
  }
}
