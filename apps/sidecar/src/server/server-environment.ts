import type { StartSidecarOptions } from "./server-start.js";
import type { RateLimit } from "../state/shared-state.js";
import { SidecarStartError } from "./sidecar-error.js";

const RATE = /^([1-9][0-9]{0,6})\/([1-9][0-9]{0,5})$/;

/** `60/60`: at most 60 runs in 60 seconds. */
function rateFrom(environment: Record<string, string | undefined>, name: string): RateLimit | undefined {
  const value = environment[name];
  if (value === undefined || value === "") return undefined;
  const match = RATE.exec(value);
  if (match === null) throw new SidecarStartError("invalid_setting", `${name} must be <runs>/<seconds> such as 60/60, not ${JSON.stringify(value)}`);
  return { points: Number(match[1]), durationSeconds: Number(match[2]) };
}

/**
 * The `eleven-sidecar` command's settings from its environment: `SIDECAR_HOME`
 * (default `~/.eleven-sidecar`), `SIDECAR_SOCKET` (default
 * `$SIDECAR_HOME/sidecar.sock`), `PORT` (set: listen on 127.0.0.1:PORT instead
 * of the socket), `LOG_LEVEL` (pino's levels, default `info`), `REDIS_URL`
 * (shared state; default none), `RATE_LIMIT_GRANT` and `RATE_LIMIT_INTEGRATION`
 * (`<runs>/<seconds>`, default 60/60 and 300/60), and to follow a broker's
 * signed releases `SIDECAR_REGISTRY_URL`, `SIDECAR_REGISTRY_KEYS`
 * (comma-separated) and `SIDECAR_REGISTRY_SYNC_MS`.
 */
export function optionsFromEnvironment(environment: Record<string, string | undefined>): StartSidecarOptions {
  const options: StartSidecarOptions = { logger: { level: environment["LOG_LEVEL"] ?? "info" } };
  const home = environment["SIDECAR_HOME"];
  if (home !== undefined && home !== "") options.home = home;
  const port = environment["PORT"];
  if (port !== undefined && port !== "") {
    if (!/^[0-9]{1,5}$/.test(port)) throw new SidecarStartError("invalid_setting", `PORT must be a port number, not ${JSON.stringify(port)}`);
    options.port = Number(port);
  }
  const socket = environment["SIDECAR_SOCKET"];
  if (socket !== undefined && socket !== "") {
    if (options.port !== undefined) throw new SidecarStartError("invalid_setting", "set SIDECAR_SOCKET or PORT, not both");
    options.socket = socket;
  }
  const redisUrl = environment["REDIS_URL"];
  if (redisUrl !== undefined && redisUrl !== "") {
    if (!/^rediss?:\/\/[^\s]+$/.test(redisUrl)) throw new SidecarStartError("invalid_setting", "REDIS_URL must be a redis:// or rediss:// URL");
    options.redisUrl = redisUrl;
  }
  const perGrant = rateFrom(environment, "RATE_LIMIT_GRANT");
  const perIntegration = rateFrom(environment, "RATE_LIMIT_INTEGRATION");
  if (perGrant !== undefined || perIntegration !== undefined) {
    options.rateLimits = { ...(perGrant === undefined ? {} : { perGrant }), ...(perIntegration === undefined ? {} : { perIntegration }) };
  }
  const registryUrl = environment["SIDECAR_REGISTRY_URL"];
  if (registryUrl !== undefined && registryUrl !== "") options.registryUrl = registryUrl;
  const registryKeys = environment["SIDECAR_REGISTRY_KEYS"];
  if (registryKeys !== undefined && registryKeys.trim() !== "") {
    options.registryKeys = registryKeys.split(",").map((key) => key.trim()).filter((key) => key !== "");
  }
  const syncMs = environment["SIDECAR_REGISTRY_SYNC_MS"];
  if (syncMs !== undefined && syncMs !== "") {
    if (!/^[0-9]{1,9}$/.test(syncMs)) throw new SidecarStartError("invalid_setting", `SIDECAR_REGISTRY_SYNC_MS must be a number of milliseconds, not ${JSON.stringify(syncMs)}`);
    options.registrySyncMs = Number(syncMs);
  }
  return options;
}

/** What `closeOnSignals` needs of `process`. */
export interface SignalSource {
  on(signal: "SIGINT" | "SIGTERM", listener: () => void): unknown;
}

/**
 * On the first SIGINT or SIGTERM, closes gracefully (requests in flight finish,
 * new connections are refused) then exits 0, or 1 if closing failed; a second
 * signal exits 1 at once.
 */
export function closeOnSignals(source: SignalSource, close: () => Promise<void>, exit: (code: number) => void): void {
  let closing = false;
  const onSignal = () => {
    if (closing) {
      exit(1);
      return;
    }
    closing = true;
    close().then(
      () => exit(0),
      () => exit(1),
    );
  };
  source.on("SIGINT", onSignal);
  source.on("SIGTERM", onSignal);
}
