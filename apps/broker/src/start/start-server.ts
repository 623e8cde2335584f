import { readFile } from "node:fs/promises";
import { loadRegistry, loadRegistryFromDir, RegistryError, type Registry } from "@eleven-integrations/loader";
import { manifestFiles } from "@eleven-integrations/manifests";
import type { FastifyInstance } from "fastify";
import { buildApp } from "../app.js";
import { BrokerConfigError } from "../config/config.js";
import { loadServerConfig, type ServerConfig } from "../config/server-config.js";
import type { BrokerLoggerOption } from "../http/logging.js";
import { createBrokerObservability, startBrokerMetricsServer } from "../metrics/broker-metrics.js";

/**
 * Reads the configuration from `environment` (through `brokerEnvironmentSchema`), loads the registry (the embedded
 * manifests, `registryDir`, or the signed `registryRelease`), builds the app and listens. Throws
 * `BrokerConfigError` or `RegistryError`, each listing every problem.
 */
export async function startBroker(
  environment: Readonly<Record<string, string | undefined>>,
  options: { logger?: BrokerLoggerOption; metricsPort?: number } = {},
): Promise<{ app: FastifyInstance; config: ServerConfig; url: string; metricsUrl: string | undefined }> {
  const loaded = loadServerConfig(environment);
  if (!loaded.ok) throw new BrokerConfigError(loaded.issues);
  const config = loaded.value;
  const logger = options.logger ?? { level: config.logLevel };
  const redis = {
    ...(config.redisUrl === undefined ? {} : { redisUrl: config.redisUrl }),
    ...(config.redisSentinels === undefined ? {} : { redisSentinels: config.redisSentinels }),
    ...(config.redisName === undefined ? {} : { redisName: config.redisName }),
    ...(config.trustProxy === undefined ? {} : { trustProxy: config.trustProxy }),
  };
  const metricsPort = options.metricsPort ?? config.metricsPort;
  const observability = metricsPort === undefined ? undefined : createBrokerObservability();
  const observe = observability === undefined ? {} : { observability };
  let app: FastifyInstance;
  let source: string;
  if (config.registryRelease !== undefined) {
    const release = await readRelease(config.registryRelease);
    app = buildApp({
      ...config.settings,
      release,
      ...(config.releaseKeys === undefined ? {} : { releaseKeys: config.releaseKeys }),
      logger,
      ...redis,
      ...observe,
    });
    source = `signed release ${config.registryRelease}`;
  } else {
    const registry: Registry = config.registryDir === undefined ? loadRegistry(manifestFiles) : await loadRegistryFromDir(config.registryDir);
    app = buildApp({ ...config.settings, registry, logger, ...redis, ...observe });
    source = config.registryDir ?? "embedded manifests";
  }
  // The route plugins (and `app.broker`) load when the app is readied.
  await app.ready();
  const registry = app.broker.registry;
  for (const warning of config.warnings) app.log.warn(warning);
  app.log.info(
    { registry: registry.hash, integrations: registry.integrations().length, source, release: app.broker.release?.sequence ?? null },
    "registry loaded",
  );
  let metrics: Awaited<ReturnType<typeof startBrokerMetricsServer>> | undefined;
  const url = await app.listen({ host: config.host, port: config.port });
  if (observability === undefined || metricsPort === undefined) return { app, config, url, metricsUrl: undefined };
  try {
    metrics = await startBrokerMetricsServer(observability, metricsPort);
    const listener = metrics.app;
    observability.stop = () => listener.close();
  } catch (error) {
    await app.close();
    throw error;
  }
  const metricsUrl = `http://127.0.0.1:${metrics.port}`;
  app.log.info({ metrics: `${metricsUrl}/metrics` }, "metrics listening");
  return { app, config, url, metricsUrl };
}

async function readRelease(path: string): Promise<Buffer> {
  try {
    return await readFile(path);
  } catch (error) {
    throw new BrokerConfigError([{ path: "registryRelease", message: `cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? "error"}` }]);
  }
}

/** The one-paragraph reason the server could not start. */
export function startupFailure(error: unknown): string {
  if (BrokerConfigError.isInstance(error) || RegistryError.isInstance(error)) return error.message;
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}
