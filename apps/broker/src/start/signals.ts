import type { FastifyInstance } from "fastify";

/** How long in-flight requests get to finish after SIGINT/SIGTERM. */
const CLOSE_TIMEOUT_MS = 10_000;

/**
 * On the first SIGINT or SIGTERM, stops taking connections and lets requests in
 * flight finish, runs `afterClose` (flushing traces), then exits 0 (1 if closing
 * failed or took longer than 10 s).
 */
export function closeOnSignals(app: FastifyInstance, afterClose: () => Promise<void> = async () => {}): void {
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
    app
      .close()
      .then(afterClose)
      .then(
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
