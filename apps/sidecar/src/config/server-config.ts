import type { StartSidecarOptions } from "../start/start-server.js";
import { SidecarStartError } from "../start/start-error.js";
import { parseEnvironment } from "./environment-schema.js";

/**
 * The `eleven-sidecar` command's settings, from its environment read through
 * `sidecarEnvironmentSchema`: `SIDECAR_HOME` (default `~/.eleven-sidecar`),
 * `SIDECAR_SOCKET` (default `$SIDECAR_HOME/sidecar.sock`), `PORT` (set: listen on
 * 127.0.0.1:PORT instead of the socket), `LOG_LEVEL` (pino's levels, default
 * `info`), `REDIS_URL` (shared state; default none) or
 * `SIDECAR_REDIS_SENTINELS` (comma-separated `host:port`) with `SIDECAR_REDIS_NAME`, `RATE_LIMIT_GRANT` and
 * `RATE_LIMIT_INTEGRATION` (`<runs>/<seconds>`, default 60/60 and 300/60), and to
 * follow a broker's signed releases `SIDECAR_REGISTRY_URL`, `SIDECAR_REGISTRY_KEYS`
 * (comma-separated), `SIDECAR_REGISTRY_SYNC_MS`, `SIDECAR_REGISTRY_MIN_SEQUENCE` and `SIDECAR_REVOCATION_SYNC_MS`, and `SIDECAR_AUDIT_ROTATE_BYTES`. Throws `SidecarStartError`
 * (`invalid_setting`) naming every malformed variable, never quoting its value.
 */
export function optionsFromEnvironment(environment: Readonly<Record<string, string | undefined>>): StartSidecarOptions {
  const parsed = parseEnvironment(environment);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${String(issue.path[0] ?? "the environment")} ${issue.message}`);
    throw new SidecarStartError("invalid_setting", problems.join("; "));
  }
  const env = parsed.data;
  const options: StartSidecarOptions = { logger: { level: env.LOG_LEVEL } };
  if (env.SIDECAR_HOME !== undefined) options.home = env.SIDECAR_HOME;
  if (env.PORT !== undefined) options.port = env.PORT;
  if (env.SIDECAR_SOCKET !== undefined) {
    if (options.port !== undefined) throw new SidecarStartError("invalid_setting", "set SIDECAR_SOCKET or PORT, not both");
    options.socket = env.SIDECAR_SOCKET;
  }
  if (env.SIDECAR_CALLER_GROUP !== undefined) options.callerGroup = env.SIDECAR_CALLER_GROUP;
  if (env.SIDECAR_METRICS_PORT !== undefined) options.metricsPort = env.SIDECAR_METRICS_PORT;
  if (env.REDIS_URL !== undefined) options.redisUrl = env.REDIS_URL;
  if (env.SIDECAR_REDIS_SENTINELS !== undefined) options.redisSentinels = env.SIDECAR_REDIS_SENTINELS;
  if (env.SIDECAR_REDIS_NAME !== undefined) options.redisName = env.SIDECAR_REDIS_NAME;
  const { RATE_LIMIT_GRANT: perGrant, RATE_LIMIT_INTEGRATION: perIntegration } = env;
  if (perGrant !== undefined || perIntegration !== undefined) {
    options.rateLimits = { ...(perGrant === undefined ? {} : { perGrant }), ...(perIntegration === undefined ? {} : { perIntegration }) };
  }
  if (env.SIDECAR_REGISTRY_URL !== undefined) options.registryUrl = env.SIDECAR_REGISTRY_URL;
  if (env.SIDECAR_REGISTRY_KEYS !== undefined && env.SIDECAR_REGISTRY_KEYS.length > 0) options.registryKeys = env.SIDECAR_REGISTRY_KEYS;
  if (env.SIDECAR_REGISTRY_SYNC_MS !== undefined) options.registrySyncMs = env.SIDECAR_REGISTRY_SYNC_MS;
  if (env.SIDECAR_REGISTRY_MIN_SEQUENCE !== undefined) options.registryMinSequence = env.SIDECAR_REGISTRY_MIN_SEQUENCE;
  if (env.SIDECAR_REVOCATION_SYNC_MS !== undefined) options.revocationSyncMs = env.SIDECAR_REVOCATION_SYNC_MS;
  if (env.SIDECAR_AUDIT_ROTATE_BYTES !== undefined) options.auditRotateBytes = env.SIDECAR_AUDIT_ROTATE_BYTES;
  return options;
}
