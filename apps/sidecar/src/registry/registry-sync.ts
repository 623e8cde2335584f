import { lstat, readFile, rename, writeFile, chmod } from "node:fs/promises";
import type { FastifyBaseLogger } from "fastify";
import type { Dispatcher } from "undici";
import { acceptRelease, short } from "./release-acceptance.js";
import { fetchRelease } from "./release-fetch.js";
import type { HighWaterMark } from "./high-water-mark.js";
import type { LiveRegistry, RegistryInfo } from "./live-registry.js";
import { SyncRefusal, type SyncRefusalReason } from "./sync-refusal.js";

export interface RegistrySyncOptions {
  /** Where the signed release is served: the broker's `GET /registry.signed`. */
  url: string;
  /** Trusted release public keys; one valid signature by one of them is enough. */
  keys: readonly string[];
  intervalMs: number;
  dispatcher: Dispatcher;
  /** The last good release, kept (0600) for the next start; none when undefined. */
  cacheFile: string | undefined;
  maxBytes: number;
  timeoutMs: number;
  live: LiveRegistry;
  log: FastifyBaseLogger;
  /** The newest release ever run, kept apart from the cache (`registry-high-water`); none when undefined. */
  highWater?: HighWaterMark | undefined;
  /** The lowest release sequence this build runs (`registryFloor`), whatever the cache or the broker holds; none when undefined. */
  floor?: number | undefined;
  /** Told every sync's outcome (metrics and readiness). */
  onOutcome?: (outcome: SyncOutcome) => void;
}

export type SyncOutcome =
  | { status: "accepted"; sequence: number; hash: string }
  | { status: "unchanged" }
  | { status: "refused"; reason: SyncRefusalReason; message: string };

/**
 * Follows the broker's signed release: every `intervalMs` a conditional GET;
 * a release that passes every check replaces the running registry (atomically,
 * see `LiveRegistry`) and is written to the cache file; anything else is logged
 * in one line naming the reason, and the last good release goes on running.
 */
export class RegistrySync {
  readonly #options: RegistrySyncOptions;
  #etag: string | undefined;
  #timer: NodeJS.Timeout | undefined;
  #stopped = false;
  #running: Promise<SyncOutcome> | undefined;

  constructor(options: RegistrySyncOptions) {
    this.#options = options;
  }

  /**
   * Runs the cached release, if there is one and it still verifies against
   * the trusted keys and loads; a cache that does not is ignored (and said so).
   */
  async loadCache(): Promise<void> {
    const { cacheFile, live, log } = this.#options;
    await this.#options.highWater?.load();
    if (cacheFile === undefined) return;
    let bytes: Buffer;
    let mtime: Date;
    try {
      const stats = await lstat(cacheFile);
      if (!stats.isFile()) {
        log.warn(`cached registry release ${cacheFile} ignored: not a regular file`);
        return;
      }
      if (stats.size > this.#options.maxBytes) {
        log.warn(`cached registry release ${cacheFile} ignored (too_large): ${stats.size} bytes`);
        return;
      }
      bytes = await readFile(cacheFile);
      mtime = stats.mtime;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT")
        log.warn(`cached registry release ${cacheFile} ignored: cannot read it (${(error as NodeJS.ErrnoException).code ?? "error"})`);
      return;
    }
    const current = live.current();
    try {
      const accepted = acceptRelease(bytes, {
        keys: this.#options.keys,
        maxBytes: this.#options.maxBytes,
        running: current.registry,
        info: current.info,
        highWater: this.#options.highWater?.mark,
        floor: this.#options.floor,
      });
      if (accepted === undefined) return;
      await this.#options.highWater?.raise({ sequence: accepted.release.sequence, hash: accepted.registry.hash });
      live.swap(accepted.registry, { hash: accepted.registry.hash, sequence: accepted.release.sequence, source: "synced", synced_at: mtime.toISOString() });
      log.info(`running the cached registry release ${accepted.release.sequence} (registry ${short(accepted.registry.hash)}) from ${cacheFile}`);
    } catch (error) {
      if (!SyncRefusal.isInstance(error)) throw error;
      log.warn(`cached registry release ${cacheFile} ignored (${error.code}): ${error.message}; running ${describeRunning(current.info)}`);
    }
  }

  /** One conditional fetch and, when a new release came, its checks and the swap. Never throws. */
  syncOnce(): Promise<SyncOutcome> {
    this.#running ??= this.#sync()
      .then((outcome) => {
        this.#options.onOutcome?.(outcome);
        return outcome;
      })
      .finally(() => {
        this.#running = undefined;
      });
    return this.#running;
  }

  /** Syncs every `intervalMs` until `stop()`; the timer does not keep the process alive. */
  start(): void {
    if (this.#stopped || this.#timer !== undefined) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      void this.syncOnce().finally(() => this.start());
    }, this.#options.intervalMs);
    this.#timer.unref();
  }

  /** Stops the timer and waits for a sync in progress. */
  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    await this.#running?.catch(() => undefined);
  }

  async #sync(): Promise<SyncOutcome> {
    const { url, live, log } = this.#options;
    const current = live.current();
    try {
      const fetched = await fetchRelease(url, {
        dispatcher: this.#options.dispatcher,
        etag: this.#etag,
        maxBytes: this.#options.maxBytes,
        timeoutMs: this.#options.timeoutMs,
      });
      if (fetched.kind === "not_modified") return { status: "unchanged" };
      const accepted = acceptRelease(fetched.bytes, {
        keys: this.#options.keys,
        maxBytes: this.#options.maxBytes,
        running: current.registry,
        info: current.info,
        highWater: this.#options.highWater?.mark,
        floor: this.#options.floor,
      });
      if (accepted === undefined) {
        this.#etag = fetched.etag;
        return { status: "unchanged" };
      }
      // Saved before the swap, so a crash right after it still restarts on this release.
      await this.#options.highWater?.raise({ sequence: accepted.release.sequence, hash: accepted.registry.hash });
      await this.#saveCache(fetched.bytes);
      const { registry, release } = accepted;
      live.swap(registry, { hash: registry.hash, sequence: release.sequence, source: "synced", synced_at: new Date().toISOString() });
      this.#etag = fetched.etag;
      log.info(
        `registry release ${release.sequence} accepted from ${url} (registry ${short(registry.hash)}, ${registry.integrations().length} manifests); was ${describeRunning(current.info)}`,
      );
      return { status: "accepted", sequence: release.sequence, hash: registry.hash };
    } catch (error) {
      const refusal = SyncRefusal.isInstance(error)
        ? error
        : new SyncRefusal("malformed", `unexpected failure: ${error instanceof Error ? error.name : "error"}`);
      log.warn(`registry release refused (${refusal.code}): ${refusal.message}; still running ${describeRunning(current.info)}`);
      return { status: "refused", reason: refusal.code, message: refusal.message };
    }
  }

  async #saveCache(bytes: Buffer): Promise<void> {
    const { cacheFile, log } = this.#options;
    if (cacheFile === undefined) return;
    const temporary = `${cacheFile}.${process.pid}.tmp`;
    try {
      await writeFile(temporary, bytes, { mode: 0o600 });
      await chmod(temporary, 0o600);
      await rename(temporary, cacheFile);
    } catch (error) {
      // The release still runs; only the next start without the broker loses it.
      log.warn(
        `cannot write the registry release cache ${cacheFile} (${(error as NodeJS.ErrnoException).code ?? "error"}): a restart without the broker will not find this release`,
      );
    }
  }
}

function describeRunning(info: RegistryInfo): string {
  return info.source === "embedded" ? `the embedded registry (${short(info.hash)})` : `release ${info.sequence} (registry ${short(info.hash)})`;
}
