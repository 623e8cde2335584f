/** What `GET /readyz` checks, each read when asked. */
export interface ReadinessSources {
  /** True once the registry (embedded, cached or synced) is loaded and the sidecar listens. */
  registryLoaded(): boolean;
  /** Undefined without Redis; else whether Redis accepts commands. */
  redisReady(): boolean | undefined;
  /** Undefined when the sidecar follows no broker; else the sync interval and when a sync last succeeded (ms since epoch). */
  sync(): { intervalMs: number; lastSuccessAt: number | undefined; startedAt: number } | undefined;
  /**
   * Undefined when the sidecar follows no broker's revocations; else the follow interval
   * and when a follow tick last succeeded (ms since epoch).
   */
  revocationFollow?(): { intervalMs: number; lastSuccessAt: number | undefined; startedAt: number } | undefined;
  now?: () => number;
}

/**
 * Ready when the registry is loaded, Redis (when configured) is reachable, and the
 * last successful registry sync is not older than three intervals, and the broker's
 * revocation feed was read within three of its intervals (a sidecar that cannot read
 * it would keep running grants a member revoked); else the reasons.
 */
export class Readiness {
  #sources: ReadinessSources | undefined;
  constructor(sources?: ReadinessSources) {
    this.#sources = sources;
  }

  /** Called by the app once it knows its registry, state and sync. */
  bind(sources: ReadinessSources): void {
    this.#sources = sources;
  }

  reasons(): string[] {
    if (this.#sources === undefined) return ["starting"];
    const reasons: string[] = [];
    if (!this.#sources.registryLoaded()) reasons.push("registry_not_loaded");
    if (this.#sources.redisReady() === false) reasons.push("redis_unreachable");
    const sync = this.#sources.sync();
    if (sync !== undefined) {
      const now = (this.#sources.now ?? Date.now)();
      const since = sync.lastSuccessAt ?? sync.startedAt;
      if (now - since > 3 * sync.intervalMs) reasons.push("registry_sync_stale");
    }
    const follow = this.#sources.revocationFollow?.();
    if (follow !== undefined) {
      const now = (this.#sources.now ?? Date.now)();
      if (now - (follow.lastSuccessAt ?? follow.startedAt) > 3 * follow.intervalMs) reasons.push("revocation_follow_stale");
    }
    return reasons;
  }
}
