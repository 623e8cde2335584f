import { createExecutor } from "@eleven-integrations/executor";
import { ReplayCache } from "@eleven-integrations/grants";
import Fastify, { type FastifyInstance } from "fastify";
import { AuditLog } from "./audit-log.js";
import type { SidecarConfig } from "./config.js";
import { registerErrorHandlers } from "./error-handlers.js";
import { createGrantOpener } from "./grant-opener.js";
import { sidecarLoggerOptions } from "./log-options.js";
import { registerRequestGuards } from "./request-guards.js";
import { ReplayJournal } from "./replay-journal.js";
import { registerRoutes } from "./routes.js";

/** Largest request body, in bytes: a grant is at most 16 KiB, args a few. */
export const MAX_BODY_BYTES = 256 * 1024;

/**
 * The sidecar as a fastify instance, listening nowhere and opening nothing
 * until it is readied (the audit file is opened then). Every request passes
 * the loopback check, then the caller token, before anything else; `close()`
 * lets runs in flight finish and write their audit lines, then closes the files.
 */
export function buildApp(config: SidecarConfig): FastifyInstance {
  const app = Fastify({
    logger: sidecarLoggerOptions(config.logger, [config.callerToken]),
    bodyLimit: MAX_BODY_BYTES,
    return503OnClosing: true,
  });
  app.removeContentTypeParser("text/plain");

  const executor = createExecutor({
    registry: config.registry,
    ...(config.dispatcher === undefined ? {} : { dispatcher: config.dispatcher }),
    ...(config.limits === undefined ? {} : { limits: config.limits }),
  });
  const audit = new AuditLog(config.auditFile);
  const journal = config.replayFile === undefined ? undefined : new ReplayJournal(config.replayFile);
  const inFlight = new Set<Promise<unknown>>();

  registerRequestGuards(app, config.callerToken);
  registerErrorHandlers(app);
  registerRoutes(app, {
    registry: config.registry,
    publicKey: config.botKeys.publicKey,
    openGrant: createGrantOpener({ botKeys: config.botKeys, trustedMembers: config.trustedMembers }),
    executor,
    replay: journal ?? new ReplayCache(),
    audit,
    inFlight,
  });

  app.addHook("onReady", async () => {
    await audit.open();
    journal?.load();
  });
  app.addHook("onClose", async () => {
    await Promise.allSettled([...inFlight]);
    await audit.close();
    journal?.close();
    await executor.close();
  });
  return app;
}
