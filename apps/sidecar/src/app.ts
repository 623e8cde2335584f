import { FileStore } from "./files/file-store.js";
import { randomBytes } from "node:crypto";
import { createHardenedDispatcher } from "@eleven-integrations/executor";
import { openApproval, ready, receiptKeysFor, toBase64Url } from "@eleven-integrations/grants";
import { serverTimeoutOptions } from "@eleven-integrations/server-kit";
import Fastify, { type FastifyInstance } from "fastify";
import { createAuditLog, openAuditLog } from "./audit/sidecar-audit.js";
import type { SidecarConfig } from "./config/config.js";
import { sidecarLoggerOptions } from "./http/logging.js";
import { registerRoutes } from "./http/routes.js";
import { MetricLabels } from "./metrics/metric-labels.js";
import { countRequests, countingAuditSink } from "./metrics/observability.js";
import { Readiness } from "./metrics/readiness.js";
import { tracingAuditSink } from "./metrics/run-span.js";
import { BrokerFollowers } from "./registry/broker-followers.js";
import { LiveRegistry } from "./registry/live-registry.js";
import { createGrantOpener } from "./run/grant-opener.js";
import { createSharedState } from "./state/build-state.js";
import { RedisState } from "./state/redis-state.js";
import { EventScheduler } from "./events/event-scheduler.js";
import { LocalEventStore } from "./events/local-event-store.js";
import { RedisEventStore } from "./events/redis-event-store.js";
import type { SidecarContext } from "./http/context.js";

/** Largest request body, in bytes: a grant is at most 16 KiB, args a few. */
export const MAX_BODY_BYTES = 256 * 1024;

/**
 * The sidecar as a fastify instance, listening nowhere and opening nothing
 * until it is readied (the audit file is opened then). Every request passes
 * the loopback check, then the caller token, before anything else; `close()`
 * lets runs in flight finish and write their audit lines, then closes the files.
 */
export function buildApp(config: SidecarConfig): FastifyInstance {
  const followers = new BrokerFollowers(config);
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
  // Derived from the bot key once libsodium is ready (onReady) when the caller passed none; they sign receipts and audit checkpoints.
  let receiptKeys = config.receiptKeys;
  const receiptKeysNow = () => {
    if (receiptKeys === undefined) throw new Error("the sidecar is not ready: it has no receipt key yet");
    return receiptKeys;
  };
  const audit = createAuditLog(config, receiptKeysNow);
  const state = config.state ?? createSharedState(config, () => app.log);
  const inFlight = new Set<Promise<unknown>>();
  const observability = config.observability;
  if (observability !== undefined) countRequests(app, observability.metrics);
  const readiness = observability?.readiness ?? new Readiness();
  const labels = new MetricLabels(() => live.current().registry);

  const localEvents = new LocalEventStore(config.eventFile);
  const events = state instanceof RedisState ? new RedisEventStore(state.client, state.prefix, localEvents) : localEvents;
  let closing = false;
  const context: SidecarContext = {
    live,
    publicKey: config.botKeys.publicKey,
    openGrant: createGrantOpener({ botKeys: config.botKeys, trustedMembers: config.trustedMembers }),
    openApproval: (sealed) => openApproval(sealed, { bot: config.botKeys, trustedMembers: [...config.trustedMembers] }),
    state,
    botKeys: config.botKeys,
    trustedMembers: config.trustedMembers,
    audit: tracingAuditSink(observability === undefined ? audit : countingAuditSink(audit, observability.metrics), undefined, labels),
    auditKey: config.auditKey ?? toBase64Url(randomBytes(32)),
    inFlight,
    readiness,
    receiptKeys: receiptKeysNow,
    files: config.filesDir === undefined ? undefined : new FileStore({ dir: config.filesDir }),
    events,
    closing: () => closing,
  };
  // The scheduler runs polls through the same context the routes call with.
  const scheduler = new EventScheduler({
    store: events,
    live,
    runner: context,
    log: () => app.log,
    pollEveryMs: config.pollEveryMs,
    lifecycleEveryMs: config.lifecycleEveryMs,
  });
  context.scheduler = scheduler;
  live.onSwap((before, after, info) => {
    void scheduler.registrySwapped(before, after, info.hash).catch((error: unknown) => app.log.warn({ err: error }, "registry.changed could not be kept"));
  });
  registerRoutes(app, { callerToken: config.callerToken, context });

  // Ready once the registry is loaded, which buildApp has done by the time the app is ready to answer.
  let loaded = false;
  const redisReady = () => (state instanceof RedisState ? state.ready : undefined);
  readiness.bind({
    registryLoaded: () => loaded,
    redisReady,
    sync: () => followers.syncFreshness(),
    revocationFollow: () => followers.followFreshness(),
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
    loaded = true;
    await ready();
    receiptKeys ??= receiptKeysFor(config.botKeys);
    await openAuditLog(audit, app.log);
    await state.open();
    await events.open();
    await scheduler.start();
    await followers.open({ live, state, log: app.log, onSyncRefused: (reason) => observability?.metrics.recordSyncFailure(reason) });
  });
  app.addHook("onClose", async () => {
    closing = true;
    scheduler.stop();
    await followers.close();
    await Promise.allSettled([...inFlight]);
    await audit.close();
    await state.close();
    await events.close();
    if (config.dispatcher === undefined) await dispatcher.close();
  });
  return app;
}
