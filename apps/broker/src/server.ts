#!/usr/bin/env node
// The `eleven-broker` command, and the only module that reads the environment: through
// `brokerEnvironmentSchema` (config/environment-schema.ts), then listens and closes gracefully on SIGINT/SIGTERM.
import { closeOnSignals } from "./start/signals.js";
import { startBroker, startupFailure } from "./start/start-server.js";
import { startTracing } from "@eleven-integrations/server-kit";

try {
  // Registered before the broker starts so every connect's span reaches it; flushed when the app closes.
  const tracing = await startTracing(process.env, "eleven-broker");
  const { app } = await startBroker(process.env);
  closeOnSignals(app, async () => tracing?.shutdown());
} catch (error) {
  process.stderr.write(`eleven-broker: ${startupFailure(error)}\n`);
  process.exitCode = 1;
}
