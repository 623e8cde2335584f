#!/usr/bin/env node
import type { FastifyInstance } from "fastify";
import { startServer, startupFailure } from "./server/run-server.js";

/** How long in-flight requests get to finish after SIGINT/SIGTERM. */
const CLOSE_TIMEOUT_MS = 10_000;

function closeOnSignals(app: FastifyInstance): void {
  let closing = false;
  const close = (signal: NodeJS.Signals) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, "closing: no new connections, finishing in-flight requests");
    const force = setTimeout(() => {
      app.log.error(`did not close within ${CLOSE_TIMEOUT_MS / 1000} s: exiting`);
      process.exit(1);
    }, CLOSE_TIMEOUT_MS);
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
}

try {
  const { app } = await startServer(process.env);
  closeOnSignals(app);
} catch (error) {
  process.stderr.write(`eleven-broker: ${startupFailure(error)}\n`);
  process.exitCode = 1;
}
