import { randomBytes } from "node:crypto";
import { CLOCK_SKEW_SECONDS, MAX_CONFIRMATION_TTL_SECONDS } from "@eleven-integrations/grants";
import type { Redis } from "ioredis";

/**
 * Tells when the shared store lost its data (a restart without persistence, a
 * failover to an empty replica). A random epoch is written once, without expiry,
 * at `<prefix>epoch`; every command that guards a confirmation or a revocation
 * reads it in the same round trip. An epoch missing or changed means the store
 * was emptied: from then on every confirmation that could have been signed
 * (and so consumed) before is refused, and the caller writes its revocations back.
 */
export class StoreEpoch {
  readonly key: string;
  #current: string | undefined;
  #emptiedAtMs: number | undefined;
  readonly #client: Redis;
  readonly #now: () => number;

  constructor(client: Redis, prefix: string, now: () => number) {
    this.#client = client;
    this.key = `${prefix}epoch`;
    this.#now = now;
  }

  /** When this sidecar last found the store emptied (ms, its clock), if ever. */
  get emptiedAtMs(): number | undefined {
    return this.#emptiedAtMs;
  }

  /** Writes the epoch when the store has none (a new or emptied store: true) and learns it. */
  async establish(): Promise<boolean> {
    const created = (await this.#client.set(this.key, toEpoch(), "NX")) === "OK";
    this.#current = (await this.#client.get(this.key)) ?? undefined;
    return created;
  }

  /**
   * `seen` is the epoch read beside a command. True when it shows the store was
   * emptied since this sidecar learned its epoch (newly, or as another sidecar
   * found first and re-wrote it); the new epoch is learned either way. `created`
   * when this sidecar, not knowing the epoch yet, found none and wrote it.
   */
  async observe(seen: string | null): Promise<"same" | "emptied" | "created"> {
    if (this.#current === undefined) {
      if (seen !== null) {
        this.#current = seen;
        return "same";
      }
      return (await this.establish()) ? "created" : "same";
    }
    if (seen === this.#current) return "same";
    this.#emptiedAtMs = this.#now();
    if (seen === null) await this.establish();
    else this.#current = seen;
    return "emptied";
  }

  /**
   * Whether a confirmation whose member signed `exp` (Unix seconds: the expiry in its
   * payload, never the skew-extended last second a sidecar accepts it, which would
   * cancel the margin) could have been signed, and consumed, before the store was
   * emptied: signed at `exp - 300` by the member's clock, which may run up to 60 s
   * ahead. Such a confirmation is refused; the member taps again.
   */
  refuses(exp: number): boolean {
    if (this.#emptiedAtMs === undefined) return false;
    return exp - MAX_CONFIRMATION_TTL_SECONDS <= Math.ceil(this.#emptiedAtMs / 1000) + CLOCK_SKEW_SECONDS;
  }
}

function toEpoch(): string {
  return randomBytes(16).toString("base64url");
}
