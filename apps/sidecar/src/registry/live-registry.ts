import { createExecutor, type Executor, type ExecutorLimits } from "@eleven-integrations/executor";
import type { Registry } from "@eleven-integrations/loader";
import type { Dispatcher } from "undici";

/** Where the registry a sidecar runs came from, as `GET /v1/identity` reports it. */
export interface RegistryInfo {
  hash: string;
  /** The release's sequence; 0 for the embedded registry, which is no release. */
  sequence: number;
  source: "embedded" | "synced";
  /** When the running release was accepted from the broker (ISO 8601), or null for the embedded registry. */
  synced_at: string | null;
}

/** What one request runs against: taken once when it starts, so it finishes on it whatever is swapped meanwhile. */
export interface RegistrySnapshot {
  readonly registry: Registry;
  readonly executor: Executor;
  readonly info: Readonly<RegistryInfo>;
}

/**
 * The registry a sidecar runs, swapped atomically when a new release is
 * accepted: each request takes `current()` once and keeps that snapshot (its
 * registry and an executor over it), so runs in flight finish on the registry
 * they started with. Every executor shares one dispatcher.
 */
export class LiveRegistry {
  #current: RegistrySnapshot;
  readonly #dispatcher: Dispatcher;
  readonly #limits: ExecutorLimits | undefined;
  readonly #pageKey: Uint8Array | undefined;
  readonly #listeners: ((before: Registry, after: Registry, info: Readonly<RegistryInfo>) => void)[] = [];

  /**
   * `pageKey` is shared by the executor of every release, so a `next_page` handed out
   * before a swap still opens after it when the op's manifest is unchanged (the token is
   * bound to the manifest's hash, so a changed manifest refuses it).
   */
  constructor(
    registry: Registry,
    info: RegistryInfo,
    options: { dispatcher: Dispatcher; limits?: ExecutorLimits | undefined; pageKey?: Uint8Array | undefined },
  ) {
    this.#dispatcher = options.dispatcher;
    this.#limits = options.limits;
    this.#pageKey = options.pageKey;
    this.#current = this.#snapshot(registry, info);
  }

  current(): RegistrySnapshot {
    return this.#current;
  }

  /** Runs every request that starts from now on against `registry`. */
  swap(registry: Registry, info: RegistryInfo): void {
    const before = this.#current;
    this.#current = this.#snapshot(registry, info);
    for (const listener of this.#listeners) listener(before.registry, registry, info);
  }

  /** Called after every swap with the registry before and after it (the events' `registry.changed`). */
  onSwap(listener: (before: Registry, after: Registry, info: Readonly<RegistryInfo>) => void): void {
    this.#listeners.push(listener);
  }

  #snapshot(registry: Registry, info: RegistryInfo): RegistrySnapshot {
    const executor = createExecutor({
      registry,
      dispatcher: this.#dispatcher,
      ...(this.#limits === undefined ? {} : { limits: this.#limits }),
      ...(this.#pageKey === undefined ? {} : { pageKey: this.#pageKey }),
    });
    return Object.freeze({ registry, executor, info: Object.freeze({ ...info }) });
  }
}
