#!/usr/bin/env node
// The `eleven-sidecar` command, and the only module that reads the environment: through
// `sidecarEnvironmentSchema` (config/environment-schema.ts), then starts on its Unix socket
// (or 127.0.0.1 given PORT) and closes gracefully on SIGINT/SIGTERM.
import { optionsFromEnvironment } from "./config/server-config.js";
import { closeOnSignals } from "./start/signals.js";
import { SidecarStartError } from "./start/start-error.js";
import { startSidecar } from "./start/start-server.js";
import { startTracing } from "@eleven-integrations/server-kit";

try {
  const options = optionsFromEnvironment(process.env);
  // Registered before the sidecar starts so every run's span reaches it.
  const tracing = await startTracing(process.env, "eleven-sidecar");
  const sidecar = await startSidecar(options);
  process.stderr.write(
    `eleven-sidecar listening on ${sidecar.address}\n` +
      `  bot public key: ${sidecar.publicKey}\n` +
      `  caller token:   ${sidecar.callerTokenFile}\n` +
      `  audit log:      ${sidecar.auditFile}\n` +
      (sidecar.metricsPort === undefined ? "" : `  metrics:        http://127.0.0.1:${sidecar.metricsPort}/metrics (probes /healthz, /readyz)\n`) +
      `  shared state:   ${options.redisSentinels !== undefined ? `Redis Sentinel (primary ${options.redisName ?? "?"})` : options.redisUrl === undefined ? "this process and its journals (no REDIS_URL)" : "Redis (REDIS_URL)"}\n` +
      (options.registryUrl === undefined ? "" : `  following:      ${options.registryUrl} (cache ${sidecar.registryCacheFile})\n`) +
      (tracing === undefined ? "" : "  traces:         OTLP/HTTP (OTEL_* variables)\n"),
  );
  const close = async () => {
    try {
      await sidecar.close();
    } finally {
      await tracing?.shutdown();
    }
  };
  closeOnSignals(process, close, (code) => process.exit(code));
} catch (error) {
  const message = SidecarStartError.isInstance(error) || error instanceof Error ? error.message : String(error);
  process.stderr.write(`eleven-sidecar: ${message}\n`);
  process.exit(1);
}
