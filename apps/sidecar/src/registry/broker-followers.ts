import type { FastifyBaseLogger } from "fastify";
import { Agent } from "undici";
import type { SidecarConfig } from "../config/config.js";
import type { SharedState } from "../state/shared-state.js";
import { HighWaterMark } from "./high-water-mark.js";
import type { LiveRegistry } from "./live-registry.js";
import { RegistrySync } from "./registry-sync.js";
import { registrySyncSettings, type RegistrySyncSettings } from "./registry-sync-config.js";
import { RevocationFollow } from "./revocation-follow.js";
import { revocationFollowSettings, type RevocationFollowSettings } from "./revocation-follow-config.js";

/** How far a follower is behind, for `/readyz`: undefined when it is not configured. */
export interface FollowerFreshness {
  intervalMs: number;
  lastSuccessAt: number | undefined;
  startedAt: number;
}

/**
 * What a sidecar follows from its broker: signed registry releases (`registryUrl`)
 * and, beside them, the broker's revocations. `open()` loads the cached release,
 * syncs once and follows the revocations once (each bounded by its deadline, so a
 * sidecar whose broker is up starts on its release, knowing what it revoked), then
 * keeps both going; `close()` stops them.
 */
export class BrokerFollowers {
  readonly #config: SidecarConfig;
  readonly #syncSettings: RegistrySyncSettings | undefined;
  readonly #followSettings: RevocationFollowSettings | undefined;
  readonly #startedAt = Date.now();
  #sync: RegistrySync | undefined;
  #follow: RevocationFollow | undefined;
  #ownDispatcher: Agent | undefined;
  #lastSyncSuccessAt: number | undefined;

  constructor(config: SidecarConfig) {
    this.#config = config;
    this.#syncSettings = registrySyncSettings(config);
    this.#followSettings = revocationFollowSettings(config);
  }

  /** The registry sync's freshness, for `/readyz`. */
  syncFreshness(): FollowerFreshness | undefined {
    const settings = this.#syncSettings;
    return settings === undefined ? undefined : { intervalMs: settings.intervalMs, lastSuccessAt: this.#lastSyncSuccessAt, startedAt: this.#startedAt };
  }

  /** The revocation follower's freshness, for `/readyz`. */
  followFreshness(): FollowerFreshness | undefined {
    const settings = this.#followSettings;
    return settings === undefined ? undefined : { intervalMs: settings.intervalMs, lastSuccessAt: this.#follow?.lastSuccessAt, startedAt: this.#startedAt };
  }

  async open(deps: { live: LiveRegistry; state: SharedState; log: FastifyBaseLogger; onSyncRefused: (reason: string) => void }): Promise<void> {
    const config = this.#config;
    if (this.#syncSettings === undefined) return;
    this.#ownDispatcher = config.registryDispatcher === undefined ? new Agent({ allowH2: false, connect: { timeout: 10_000 } }) : undefined;
    const dispatcher = config.registryDispatcher ?? (this.#ownDispatcher as Agent);
    this.#sync = new RegistrySync({
      ...this.#syncSettings,
      dispatcher,
      cacheFile: config.registryCacheFile,
      highWater: config.registryHighWaterFile === undefined ? undefined : new HighWaterMark(config.registryHighWaterFile),
      live: deps.live,
      log: deps.log,
      onOutcome: (outcome) => {
        if (outcome.status === "refused") deps.onSyncRefused(outcome.reason);
        else this.#lastSyncSuccessAt = Date.now();
      },
    });
    await this.#sync.loadCache();
    await this.#sync.syncOnce();
    this.#sync.start();
    if (this.#followSettings === undefined) return;
    this.#follow = new RevocationFollow({
      ...this.#followSettings,
      dispatcher,
      deps: { botKeys: config.botKeys, trustedMembers: config.trustedMembers, state: deps.state },
      log: deps.log,
    });
    await this.#follow.followOnce();
    this.#follow.start();
  }

  async close(): Promise<void> {
    await this.#sync?.stop();
    await this.#follow?.stop();
    await this.#ownDispatcher?.close();
  }
}
