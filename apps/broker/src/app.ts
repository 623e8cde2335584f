import { createHardenedDispatcher } from "@eleven-integrations/executor";
import { ready } from "@eleven-integrations/grants";
import Fastify, { type FastifyInstance } from "fastify";
import type { BrokerContext } from "./broker-context.js";
import { createRefreshFlights } from "./refresh-flight.js";
import { catalogRoutes } from "./catalog-routes.js";
import { BrokerConfigError, validateBrokerSettings, type BrokerConfig } from "./config.js";
import { connectRoutes } from "./connect-routes.js";
import { installErrorHandling } from "./error-handler.js";
import { brokerLoggerOptions } from "./logging.js";
import { createOutboundFetch } from "./outbound-fetch.js";
import { webOrigins } from "./return-to.js";

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
  if (config.registry === undefined || typeof config.registry.catalog !== "function") {
    throw new BrokerConfigError([{ path: "registry", message: "is required (a loaded Registry)" }]);
  }
  const { publicUrl, stateKey, oldStateKeys = [], oauthApps = {}, allowedReturnTo } = settings.value;
  const secrets = [stateKey, ...oldStateKeys, ...Object.values(oauthApps).map((app) => app.clientSecret)];

  const app = Fastify({
    logger: brokerLoggerOptions(config.logger, secrets),
    bodyLimit: 64 * 1024,
    return503OnClosing: true,
  });
  // The executor's hardened dispatcher: HTTP/1.1, and only public unicast addresses at connect time.
  const dispatcher = config.dispatcher ?? createHardenedDispatcher();
  if (config.dispatcher === undefined) app.addHook("onClose", async () => dispatcher.close());

  const now = config.now ?? (() => Math.floor(Date.now() / 1000));
  const context: BrokerContext = {
    registry: config.registry,
    redirectUri: `${publicUrl}/connect/callback`,
    stateKey,
    stateKeys: [stateKey, ...oldStateKeys],
    oauthApps,
    allowedReturnTo: new Set(allowedReturnTo),
    allowedOrigins: webOrigins(allowedReturnTo),
    fetch: createOutboundFetch({ dispatcher, timeoutMs: config.outboundTimeoutMs ?? DEFAULT_OUTBOUND_TIMEOUT_MS }),
    now,
    refreshFlights: createRefreshFlights({
      ...(config.redisUrl === undefined ? {} : { redisUrl: config.redisUrl }),
      stateKey,
      stateKeys: [stateKey, ...oldStateKeys],
      callTimeoutMs: config.outboundTimeoutMs ?? DEFAULT_OUTBOUND_TIMEOUT_MS,
    }),
  };
  app.decorate("broker", context);
  app.addHook("onClose", async () => context.refreshFlights.close());
  app.addHook("onReady", async () => {
    await ready();
    await context.refreshFlights.open();
  });
  warnAboutOAuthApps(app, context);
  installErrorHandling(app);
  void app.register(catalogRoutes);
  void app.register(connectRoutes);
  return app;
}

function warnAboutOAuthApps(app: FastifyInstance, context: BrokerContext): void {
  const unavailable = context.registry
    .integrations()
    .filter((manifest) => manifest.auth.oauth !== undefined && !Object.hasOwn(context.oauthApps, manifest.id))
    .map((manifest) => manifest.id);
  if (unavailable.length > 0) app.log.warn({ integrations: unavailable }, "no OAuth app configured: these integrations are served with OAuth unavailable");
  const unused = Object.keys(context.oauthApps).filter((id) => context.registry.get(id)?.auth.oauth === undefined);
  if (unused.length > 0) app.log.warn({ integrations: unused }, "OAuth apps configured for integrations that are not OAuth integrations in this registry: ignored");
}
