import { createExecutor, createHardenedDispatcher } from "@eleven-integrations/executor";
import type { Registry } from "@eleven-integrations/loader";
import { ready } from "@eleven-integrations/grants";
import Fastify, { type FastifyInstance } from "fastify";
import { brokerContextPlugin, type BrokerContext } from "./broker-context.js";
import { createRefreshFlights } from "./state/refresh-flight.js";
import { catalogPlugin } from "./routes/catalog-plugin.js";
import { BrokerConfigError, redisTargetOf, validateBrokerSettings, type BrokerConfig, type ConfigIssue } from "./config/config.js";
import { connectPlugin } from "./routes/connect-plugin.js";
import { healthPlugin } from "./routes/health-plugin.js";
import { errorHandlingPlugin } from "./http/error-handling.js";
import { brokerLoggerOptions } from "./http/logging.js";
import { createOutboundFetch } from "./connect/outbound-fetch.js";
import { createMemoryRefreshLimiter, createRedisRefreshLimiter } from "./state/refresh-limiter.js";
import { createMemoryRevocationList, createRedisRevocationList } from "./state/revocation-list.js";
import { closeClient, createRedisClient, waitReady } from "./state/redis-connection.js";
import { createRevokeBudgets } from "./state/revoke-budgets.js";
import { createRevocationBudgets } from "./state/revocation-budgets.js";
import { revocationsPlugin } from "./routes/revocations-plugin.js";
import { serverTimeoutOptions } from "@eleven-integrations/server-kit";
import { recordConnectSpan } from "./metrics/connect-span.js";
import { webOrigins } from "./connect/return-to.js";
import { createRedisEventStore } from "./events/event-store.js";
import { hooksPlugin } from "./events/hooks-plugin.js";
import { registrationsPlugin } from "./events/registrations-plugin.js";
import { followPlugin } from "./events/follow-plugin.js";
import { webhookSecretsSchema, webhookSecretValues } from "./events/webhook-secrets.js";
import { checkReleaseSignature, loadServedRelease, type ServedRelease } from "./catalog/signed-release.js";

const DEFAULT_OUTBOUND_TIMEOUT_MS = 10_000;

/**
 * The broker as a fastify instance, listening nowhere (`server.ts` listens).
 * Throws `BrokerConfigError` listing every problem with the configuration.
 * An OAuth manifest without an app is served as unavailable, with a warning.
 */
export function buildApp(config: BrokerConfig): FastifyInstance {
  const settings = validateBrokerSettings({
    publicUrl: config.publicUrl,
    stateKey: config.stateKey,
    oldStateKeys: config.oldStateKeys,
    oauthApps: config.oauthApps,
    allowedReturnTo: config.allowedReturnTo,
  });
  if (!settings.ok) throw new BrokerConfigError(settings.issues);
  const { registry, release } = resolveRegistry(config);
  const { publicUrl, stateKey, oldStateKeys = [], oauthApps = {}, allowedReturnTo } = settings.value;
  const appIssues = oauthAppIssues(registry, oauthApps);
  if (appIssues.length > 0) throw new BrokerConfigError(appIssues);
  const webhookSecrets = webhookSecretsSchema.safeParse(config.webhookSecrets ?? {});
  if (!webhookSecrets.success)
    throw new BrokerConfigError([{ path: "webhookSecrets", message: 'must be { "<integration id>": "<secret>" | ["<secret>", ...] }' }]);
  const secrets = [stateKey, ...oldStateKeys, ...Object.values(oauthApps).map((app) => app.clientSecret), ...webhookSecretValues(webhookSecrets.data)];

  const app = Fastify({
    logger: brokerLoggerOptions(config.logger, secrets),
    bodyLimit: 64 * 1024,
    return503OnClosing: true,
    // Off unless configured: only a proxy the operator names may say who the client is (X-Forwarded-For).
    trustProxy: config.trustProxy ?? false,
    ...serverTimeoutOptions(config.timeouts),
  });
  // The executor's hardened dispatcher: HTTP/1.1, and only public unicast addresses at connect time.
  const dispatcher = config.dispatcher ?? createHardenedDispatcher();
  if (config.dispatcher === undefined) app.addHook("onClose", async () => dispatcher.close());

  const now = config.now ?? (() => Math.floor(Date.now() / 1000));
  const redisTarget = redisTargetOf(config);
  const redis = redisTarget === undefined ? undefined : createRedisClient(redisTarget);
  if (redis !== undefined) app.addHook("onClose", async () => closeClient(redis));
  const context: BrokerContext = {
    registry,
    release,
    redirectUri: `${publicUrl}/connect/callback`,
    publicUrl,
    webhookSecrets: webhookSecrets.data,
    events: redis === undefined ? undefined : createRedisEventStore(redis),
    onWebhook: (report) => {
      config.observability?.metrics.recordWebhook(report);
      config.onWebhook?.(report);
    },
    stateKey,
    stateKeys: [stateKey, ...oldStateKeys],
    oauthApps,
    allowedReturnTo: new Set(allowedReturnTo),
    allowedOrigins: webOrigins(allowedReturnTo),
    fetch: createOutboundFetch({ dispatcher, timeoutMs: config.outboundTimeoutMs ?? DEFAULT_OUTBOUND_TIMEOUT_MS }),
    refreshLimiter:
      config.refreshLimiter ??
      (redis === undefined ? createMemoryRefreshLimiter(config.refreshLimits) : createRedisRefreshLimiter(redis, config.refreshLimits)),
    now,
    refreshFlights: createRefreshFlights({
      ...(redisTarget === undefined ? {} : { redis: redisTarget }),
      stateKey,
      stateKeys: [stateKey, ...oldStateKeys],
      callTimeoutMs: config.outboundTimeoutMs ?? DEFAULT_OUTBOUND_TIMEOUT_MS,
    }),
    revocations: redis === undefined ? createMemoryRevocationList() : createRedisRevocationList(redis),
    revocationBudgets: createRevocationBudgets(config.revocationLimits),
    revokeBudgets: createRevokeBudgets(config.revokeLimits),
    onRevocation: config.onRevocation,
    onConnect: (event) => {
      recordConnectSpan(event);
      config.observability?.metrics.recordConnect(event);
      config.onConnect?.(event);
    },
    // No retries: the member is waiting on the callback, and a failed identity ends the connect.
    executor: createExecutor({ registry, dispatcher, limits: { retries: 0, timeoutMs: config.outboundTimeoutMs ?? DEFAULT_OUTBOUND_TIMEOUT_MS } }),
  };
  app.addHook("onClose", async () => context.refreshFlights.close());
  let listening = false;
  app.addHook("onListen", () => {
    listening = true;
  });
  const readinessReasons = () => [
    ...(listening ? [] : ["registry_not_loaded"]),
    ...(redis !== undefined && redis.status !== "ready" ? ["redis_unreachable"] : []),
  ];
  if (config.observability !== undefined) {
    const { metrics } = config.observability;
    const observability = config.observability;
    app.addHook("onClose", async () => observability.stop());
    metrics.countRequests(app, (id) => registry.get(id) !== undefined);
    config.observability.reasons = readinessReasons;
    metrics.beforeScrape(() => {
      metrics.setRegistrySequence(release?.sequence ?? 0);
      if (redis !== undefined) metrics.setRedisUp(redis.status === "ready");
    });
  }
  app.addHook("onReady", async () => {
    await ready();
    await context.refreshFlights.open();
    if (redis !== undefined) await waitReady(redis);
    if (release !== undefined && config.releaseKeys !== undefined) checkReleaseSignature(release, config.releaseKeys);
  });
  warnAboutOAuthApps(app, context);
  void app.register(brokerContextPlugin, { context });
  void app.register(errorHandlingPlugin);
  void app.register(catalogPlugin);
  void app.register(connectPlugin);
  void app.register(revocationsPlugin);
  void app.register(hooksPlugin);
  void app.register(registrationsPlugin);
  void app.register(followPlugin);
  void app.register(healthPlugin, { reasons: readinessReasons });
  return app;
}

/**
 * An app for an id that is not an OAuth integration of this registry is a
 * configuration mistake (a typo, or a manifest that lost its OAuth): the
 * broker refuses to start and names it, rather than serve without it.
 */
function oauthAppIssues(registry: Registry, oauthApps: Record<string, unknown>): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  for (const id of Object.keys(oauthApps)) {
    const manifest = registry.get(id);
    if (manifest === undefined)
      issues.push({ path: `oauthApps.${id}`, message: `there is no integration "${id}" in the registry: remove this app or fix its id` });
    else if (manifest.auth.oauth === undefined) {
      issues.push({
        path: `oauthApps.${id}`,
        message: `${manifest.name} ("${id}") has no OAuth in the registry (auth.kind is "${manifest.auth.kind}"): remove this app`,
      });
    }
  }
  return issues;
}

/** The registry to serve: the configured one, or the signed release's (which must then be the same). */
function resolveRegistry(config: BrokerConfig): { registry: Registry; release: ServedRelease | undefined } {
  const given = config.registry !== undefined && typeof config.registry.catalog === "function" ? config.registry : undefined;
  if (config.release === undefined) {
    if (given === undefined) throw new BrokerConfigError([{ path: "registry", message: "is required (a loaded Registry) unless a signed release is given" }]);
    return { registry: given, release: undefined };
  }
  const release = loadServedRelease(config.release, given);
  // Without a release key nothing checks its signature here (sidecars check their own): forget the document as read.
  if (config.releaseKeys === undefined) release.parsed = undefined;
  if (given !== undefined && given.hash !== release.registry.hash) {
    throw new BrokerConfigError([{ path: "release", message: `holds the registry ${release.registry.hash}, not the configured registry ${given.hash}` }]);
  }
  return { registry: release.registry, release };
}

function warnAboutOAuthApps(app: FastifyInstance, context: BrokerContext): void {
  const unavailable = context.registry
    .integrations()
    .filter((manifest) => manifest.auth.oauth !== undefined && !Object.hasOwn(context.oauthApps, manifest.id))
    .map((manifest) => manifest.id);
  if (unavailable.length > 0) app.log.warn({ integrations: unavailable }, "no OAuth app configured: these integrations are served with OAuth unavailable");
}
