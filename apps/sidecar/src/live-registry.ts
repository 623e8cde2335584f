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

  constructor(registry: Registry, info: RegistryInfo, options: { dispatcher: Dispatcher; limits?: ExecutorLimits | undefined }) {
    this.#dispatcher = options.dispatcher;
    this.#limits = options.limits;
    this.#current = this.#snapshot(registry, info);
  }

  current(): RegistrySnapshot {
    return this.#current;
  }

  /** Runs every request that starts from now on against `registry`. */
  swap(registry: Registry, info: RegistryInfo): void {
    this.#current = this.#snapshot(registry, info);
  }

  #snapshot(registry: Registry, info: RegistryInfo): RegistrySnapshot {
    const executor = createExecutor({ registry, dispatcher: this.#dispatcher, ...(this.#limits === undefined ? {} : { limits: this.#limits }) });
    return Object.freeze({ registry, executor, info: Object.freeze({ ...info }) });
  }
}
