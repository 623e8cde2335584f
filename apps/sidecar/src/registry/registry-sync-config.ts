import { MAX_RELEASE_BYTES } from "@eleven-integrations/grants";
import type { SidecarConfig } from "../config/config.js";
import { SidecarStartError } from "../start/start-error.js";
import { KEY_PATTERN } from "@eleven-integrations/schema";

export const DEFAULT_REGISTRY_SYNC_MS = 60_000;
export const MIN_REGISTRY_SYNC_MS = 100;
export const DEFAULT_REGISTRY_FETCH_TIMEOUT_MS = 30_000;

const LOOPBACK_HOSTS = new Set(["127.0.0.1", "[::1]", "localhost"]);

export interface RegistrySyncSettings {
  url: string;
  keys: string[];
  intervalMs: number;
  maxBytes: number;
  timeoutMs: number;
  /** The lowest release sequence run (`registryMinSequence`); 0 for none. */
  floor: number;
}

/** The sync settings of a config, checked; undefined when no `registryUrl` is set. Throws `SidecarStartError` `invalid_setting`. */
export function registrySyncSettings(config: SidecarConfig): RegistrySyncSettings | undefined {
  if (config.registryUrl === undefined) {
    if (config.registryKeys !== undefined && config.registryKeys.length > 0)
      throw invalid("registryKeys is set without registryUrl: there is nothing to follow");
    return undefined;
  }
  let url: URL;
  try {
    url = new URL(config.registryUrl);
  } catch {
    throw invalid("registryUrl must be an absolute http or https URL");
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") throw invalid("registryUrl must be an http or https URL");
  if (url.username !== "" || url.password !== "") throw invalid("registryUrl must not hold user info");
  // Plain http only on this machine: anywhere else whoever is on the path could hold back every new release (and its revocations' broker).
  if (url.protocol === "http:" && !LOOPBACK_HOSTS.has(url.hostname))
    throw invalid("registryUrl must be https unless it is on loopback (127.0.0.1, [::1], localhost)");
  const keys = config.registryKeys ?? [];
  if (keys.length === 0) throw invalid("registryKeys is required with registryUrl: a release is trusted only for a trusted key's signature");
  keys.forEach((key, index) => {
    if (!KEY_PATTERN.test(key)) throw invalid(`registryKeys entry ${index + 1} is not a 32-byte unpadded base64url Ed25519 public key`);
  });
  const intervalMs = config.registrySyncMs ?? DEFAULT_REGISTRY_SYNC_MS;
  if (!Number.isSafeInteger(intervalMs) || intervalMs < MIN_REGISTRY_SYNC_MS)
    throw invalid(`registrySyncMs must be a whole number of milliseconds from ${MIN_REGISTRY_SYNC_MS}`);
  const maxBytes = config.registryMaxBytes ?? MAX_RELEASE_BYTES;
  if (!Number.isSafeInteger(maxBytes) || maxBytes < 1) throw invalid("registryMaxBytes must be a positive whole number");
  const timeoutMs = config.registryFetchTimeoutMs ?? DEFAULT_REGISTRY_FETCH_TIMEOUT_MS;
  if (!Number.isSafeInteger(timeoutMs) || timeoutMs < 1) throw invalid("registryFetchTimeoutMs must be a positive whole number");
  const floor = config.registryMinSequence ?? 0;
  if (!Number.isSafeInteger(floor) || floor < 0) throw invalid("registryMinSequence must be a whole number from 0");
  return { url: url.href, keys: [...keys], intervalMs, maxBytes, timeoutMs, floor };
}

function invalid(message: string): SidecarStartError {
  return new SidecarStartError("invalid_setting", message);
}
