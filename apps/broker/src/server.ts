#!/usr/bin/env node
import { loadRegistry, loadRegistryFromDir, RegistryError, type Registry } from "@eleven-integrations/loader";
import { manifestFiles } from "@eleven-integrations/manifests";
import { buildApp } from "./app.js";
import { BrokerConfigError } from "./config.js";
import { loadServerConfig } from "./environment-config.js";

/** Reads the configuration and the registry, listens, and closes gracefully on SIGINT/SIGTERM. */
async function main(): Promise<void> {
  const loaded = loadServerConfig(process.env);
  if (!loaded.ok) {
    fail(`the broker configuration is not valid:\n${loaded.issues.map((issue) => `  ${issue.path}: ${issue.message}`).join("\n")}`);
    return;
  }
  const config = loaded.value;
  let registry: Registry;
  try {
    registry = config.registryDir === undefined ? loadRegistry(manifestFiles) : await loadRegistryFromDir(config.registryDir);
  } catch (error) {
    fail(RegistryError.isInstance(error) ? error.message : `cannot load the registry: ${String(error)}`);
    return;
  }

  const app = buildApp({ ...config.settings, registry, logger: { level: config.logLevel } });
  for (const warning of config.warnings) app.log.warn(warning);
  app.log.info(
    { registry: registry.hash, integrations: registry.integrations().length, source: config.registryDir ?? "embedded manifests" },
    "registry loaded",
  );

  let closing = false;
  const close = (signal: NodeJS.Signals) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, "closing");
    const force = setTimeout(() => {
      app.log.error("did not close within 10 s: exiting");
      process.exit(1);
    }, 10_000);
    force.unref();
    app.close().then(
      () => process.exit(0),
      (error: unknown) => {
        app.log.error({ err: error }, "close failed");
        process.exit(1);
      },
    );
  };
  process.once("SIGINT", close);
  process.once("SIGTERM", close);

  await app.listen({ host: config.host, port: config.port });
}

function fail(message: string): void {
  process.stderr.write(`eleven-broker: ${message}\n`);
  process.exitCode = 1;
}

main().catch((error: unknown) => {
  fail(BrokerConfigError.isInstance(error) ? error.message : error instanceof Error ? (error.stack ?? error.message) : String(error));
});
