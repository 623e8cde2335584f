import type { SidecarConfig } from "../config/config.js";
import { SidecarStartError } from "../start/start-error.js";

/** DESIGN.md: a revocation posted to the broker stops the grant on every following sidecar within 5 s. */
export const DEFAULT_REVOCATION_SYNC_MS = 5_000;
export const MAX_REVOCATION_SYNC_MS = 5_000;
export const MIN_REVOCATION_SYNC_MS = 100;
/** Deadline of one `GET /revocations`: shorter than the interval's bound, so a hung broker never holds a tick for long. */
export const REVOCATION_FETCH_TIMEOUT_MS = 4_000;
/** Largest `GET /revocations` answer read, in bytes. */
export const MAX_REVOCATIONS_ANSWER_BYTES = 4 * 1024 * 1024;

export interface RevocationFollowSettings {
  /** `<broker origin>/revocations`. */
  url: string;
  intervalMs: number;
}

/**
 * Where and how often a sidecar follows its broker's revocations: the origin of
 * `registryUrl` (already checked by `registrySyncSettings`); undefined without one.
 * Throws `SidecarStartError` `invalid_setting`.
 */
export function revocationFollowSettings(config: SidecarConfig): RevocationFollowSettings | undefined {
  const intervalMs = config.revocationSyncMs ?? DEFAULT_REVOCATION_SYNC_MS;
  if (!Number.isSafeInteger(intervalMs) || intervalMs < MIN_REVOCATION_SYNC_MS || intervalMs > MAX_REVOCATION_SYNC_MS) {
    throw new SidecarStartError(
      "invalid_setting",
      `revocationSyncMs must be a whole number of milliseconds from ${MIN_REVOCATION_SYNC_MS} to ${MAX_REVOCATION_SYNC_MS}`,
    );
  }
  if (config.registryUrl === undefined) return undefined;
  return { url: new URL("/revocations", new URL(config.registryUrl).origin).href, intervalMs };
}
