import { randomBytes } from "node:crypto";
import { createHardenedDispatcher } from "@eleven-integrations/executor";
import { ready, receiptKeysFor, toBase64Url } from "@eleven-integrations/grants";
import { Agent } from "undici";
import Fastify, { type FastifyInstance } from "fastify";
import { AuditLog } from "./audit/audit-log.js";
import { AuditCheckpoints, checkpointFileFor } from "./audit/audit-checkpoints.js";
import type { SidecarConfig } from "./config/config.js";
import { errorHandlingPlugin } from "./http/error-handling.js";
import { createGrantOpener } from "./run/grant-opener.js";
import { sidecarLoggerOptions } from "./http/logging.js";
import { requestGuardsPlugin } from "./http/request-guards.js";
import { LocalState } from "./state/local-state.js";
import { RedisState } from "./state/redis-state.js";
import { redisTargetOf, type RedisTarget } from "./state/redis-target.js";
import type { SharedState } from "./state/shared-state.js";
import { LiveRegistry } from "./registry/live-registry.js";
import { sidecarContextPlugin } from "./http/context.js";
import { identityPlugin } from "./http/identity-plugin.js";
import { openapiPlugin } from "./http/openapi-plugin.js";
import { opsPlugin } from "./http/ops-plugin.js";
import { revokePlugin } from "./http/revoke-plugin.js";
import { whoamiPlugin } from "./http/whoami-plugin.js";
import { runPlugin } from "./http/run-plugin.js";
import { searchPlugin } from "./http/search-plugin.js";
import { serverTimeoutOptions } from "@eleven-integrations/server-kit";
import { RegistrySync } from "./registry/registry-sync.js";
import { HighWaterMark } from "./registry/high-water-mark.js";
import { registrySyncSettings } from "./registry/registry-sync-config.js";
import { RevocationFollow } from "./registry/revocation-follow.js";
import { revocationFollowSettings } from "./registry/revocation-follow-config.js";
import { countRequests, countingAuditSink } from "./metrics/observability.js";
import { Readiness } from "./metrics/readiness.js";
import { healthPlugin } from "./http/health-plugin.js";
import { tracingAuditSink } from "./metrics/run-span.js";
import { MetricLabels } from "./metrics/metric-labels.js";

/** Largest request body, in bytes: a grant is at most 16 KiB, args a few. */
export const MAX_BODY_BYTES = 256 * 1024;

/**
 * The sidecar as a fastify instance, listening nowhere and opening nothing
 * until it is readied (the audit file is opened then). Every request passes
 * the loopback check, then the caller token, before anything else; `close()`
 * lets runs in flight finish and write their audit lines, then closes the files.
 */
export function buildApp(config: SidecarConfig): FastifyInstance {
  const syncSettings = registrySyncSettings(config);
  const followSettings = revocationFollowSettings(config);
  const redisTarget = redisTargetOf(config);
  const app = Fastify({
    logger: sidecarLoggerOptions(config.logger, [config.callerToken]),
    bodyLimit: MAX_BODY_BYTES,
    return503OnClosing: true,
    ...serverTimeoutOptions(config.timeouts),
  });
  app.removeContentTypeParser("text/plain");

  // One dispatcher for every executor the sidecar makes as releases come and go.
  const dispatcher = config.dispatcher ?? createHardenedDispatcher();
  const live = new LiveRegistry(
    config.registry,
    { hash: config.registry.hash, sequence: config.embeddedSequence ?? 0, source: "embedded", synced_at: null },
    { dispatcher, limits: config.limits, pageKey: config.pageKey ?? randomBytes(32) },
  );
  // Drawn once libsodium is ready (onReady) when the caller passed none; they sign receipts and the audit checkpoints.
  let receiptKeys = config.receiptKeys;
  const checkpoints = new AuditCheckpoints(config.auditCheckpointFile ?? checkpointFileFor(config.auditFile), () => {
    if (receiptKeys === undefined) throw new Error("the sidecar is not ready: it has no receipt key yet");
    return receiptKeys;
  });
  const audit = new AuditLog(config.auditFile, {
    checkpoints,
    ...(config.auditRotateBytes === undefined ? {} : { rotateBytes: config.auditRotateBytes }),
  });
  let lastRedisWarning = 0;
  let lastLoneWarning = 0;
  const state =
    config.state ??
    buildState(
      config,
      redisTarget,
      (error) => {
        // ioredis reports every reconnect attempt: one line every 30 s is enough.
        if (Date.now() - lastRedisWarning < 30_000) return;
        lastRedisWarning = Date.now();
        app.log.warn({ kind: errorKind(error) }, "redis unreachable: writes are refused until it is back");
      },
      (connected) => {
        if (Date.now() - lastLoneWarning < 30_000) return;
        lastLoneWarning = Date.now();
        app.log.warn(
          { connected_replicas: connected },
          "the redis primary has fewer replicas than asked for: confirmations are kept on the primary alone until one attaches",
        );
      },
    );
  const inFlight = new Set<Promise<unknown>>();
  const observability = config.observability;
  if (observability !== undefined) countRequests(app, observability.metrics);
  const readiness = observability?.readiness ?? new Readiness();

  void app.register(requestGuardsPlugin, { callerToken: config.callerToken });
  void app.register(errorHandlingPlugin);
  void app.register(sidecarContextPlugin, {
    context: {
      live,
      publicKey: config.botKeys.publicKey,
      openGrant: createGrantOpener({ botKeys: config.botKeys, trustedMembers: config.trustedMembers }),
      state,
      botKeys: config.botKeys,
      trustedMembers: config.trustedMembers,
      audit: tracingAuditSink(
        observability === undefined ? audit : countingAuditSink(audit, observability.metrics),
        undefined,
        new MetricLabels(() => live.current().registry),
      ),
      auditKey: config.auditKey ?? toBase64Url(randomBytes(32)),
      inFlight,
      readiness,
      receiptKeys: () => {
        if (receiptKeys === undefined) throw new Error("the sidecar is not ready: it has no receipt key yet");
        return receiptKeys;
      },
    },
  });
  void app.register(identityPlugin);
  void app.register(opsPlugin);
  void app.register(searchPlugin);
  void app.register(runPlugin);
  void app.register(revokePlugin);
  void app.register(whoamiPlugin);
  void app.register(openapiPlugin);
  void app.register(healthPlugin);

  let sync: RegistrySync | undefined;
  let follow: RevocationFollow | undefined;
  let syncDispatcher: Agent | undefined;
  let lastSyncSuccessAt: number | undefined;
  const startedAt = Date.now();
  // Ready once the registry is loaded, which buildApp has done by the time the app is ready to answer.
  let loaded = false;
  app.addHook("onReady", async () => {
    loaded = true;
  });
  const redisReady = () => (state instanceof RedisState ? state.ready : undefined);
  readiness.bind({
    registryLoaded: () => loaded,
    redisReady,
    sync: () => (syncSettings === undefined ? undefined : { intervalMs: syncSettings.intervalMs, lastSuccessAt: lastSyncSuccessAt, startedAt }),
    revocationFollow: () =>
      followSettings === undefined ? undefined : { intervalMs: followSettings.intervalMs, lastSuccessAt: follow?.lastSuccessAt, startedAt },
  });
  if (observability !== undefined) {
    const { metrics } = observability;
    metrics.labelsFrom(() => live.current().registry);
    metrics.beforeScrape(() => {
      metrics.setRegistrySequence(live.current().info.sequence);
      const redis = redisReady();
      if (redis !== undefined) metrics.setRedisUp(redis);
    });
  }
  app.addHook("onReady", async () => {
    await ready();
    receiptKeys ??= receiptKeysFor(config.botKeys);
    await audit.open();
    const mismatch = audit.checkpointMismatch;
    if (mismatch !== undefined) {
      app.log.error(
        { recorded: mismatch.recorded, found: mismatch.found },
        "the audit journal no longer holds the head its last checkpoint recorded: lines were removed or changed (integrations audit verify names where)",
      );
    }
    await state.open();
    if (syncSettings === undefined) return;
    syncDispatcher = config.registryDispatcher === undefined ? new Agent({ allowH2: false, connect: { timeout: 10_000 } }) : undefined;
    sync = new RegistrySync({
      ...syncSettings,
      dispatcher: config.registryDispatcher ?? (syncDispatcher as Agent),
      cacheFile: config.registryCacheFile,
      highWater: config.registryHighWaterFile === undefined ? undefined : new HighWaterMark(config.registryHighWaterFile),
      live,
      log: app.log,
      onOutcome: (outcome) => {
        if (outcome.status === "refused") observability?.metrics.recordSyncFailure(outcome.reason);
        else lastSyncSuccessAt = Date.now();
      },
    });
    await sync.loadCache();
    // The first sync is awaited (bounded by its deadline), so a sidecar whose broker is up starts on the broker's release.
    await sync.syncOnce();
    sync.start();
    if (followSettings === undefined) return;
    follow = new RevocationFollow({
      ...followSettings,
      dispatcher: config.registryDispatcher ?? (syncDispatcher as Agent),
      deps: { botKeys: config.botKeys, trustedMembers: config.trustedMembers, state },
      log: app.log,
    });
    // Awaited like the first sync (bounded by its deadline): a sidecar starts knowing what its broker revoked.
    await follow.followOnce();
    follow.start();
  });
  app.addHook("onClose", async () => {
    await sync?.stop();
    await follow?.stop();
    await Promise.allSettled([...inFlight]);
    await audit.close();
    await state.close();
    await syncDispatcher?.close();
    if (config.dispatcher === undefined) await dispatcher.close();
  });
  return app;
}

/** Redis when `redisUrl` or `redisSentinels` is set, else this process with its journals. */
function buildState(
  config: SidecarConfig,
  target: RedisTarget | undefined,
  onRedisError: (error: Error) => void,
  onRedisLonePrimary: (connected: number) => void,
): SharedState {
  if (target !== undefined) {
    return new RedisState({
      ...target,
      namespace: config.botKeys.publicKey,
      ...(config.revocationFile === undefined ? {} : { revocationFile: config.revocationFile }),
      ...(config.rateLimits === undefined ? {} : { rateLimits: config.rateLimits }),
      onError: onRedisError,
      onLonePrimary: onRedisLonePrimary,
    });
  }
  return new LocalState({
    ...(config.replayFile === undefined ? {} : { replayFile: config.replayFile }),
    ...(config.outcomeFile === undefined ? {} : { outcomeFile: config.outcomeFile }),
    ...(config.revocationFile === undefined ? {} : { revocationFile: config.revocationFile }),
    ...(config.rateLimits === undefined ? {} : { rateLimits: config.rateLimits }),
  });
}

/** An error's code or name, never its message (which can name the Redis URL). */
function errorKind(error: Error): string {
  const code = (error as NodeJS.ErrnoException).code;
  return typeof code === "string" ? code : error.name;
}
