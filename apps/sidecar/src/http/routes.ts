import type { FastifyInstance } from "fastify";
import { sidecarContextPlugin, type SidecarContext } from "./context.js";
import { errorHandlingPlugin } from "./error-handling.js";
import { healthPlugin } from "./health-plugin.js";
import { identityPlugin } from "./identity-plugin.js";
import { openapiPlugin } from "./openapi-plugin.js";
import { opsPlugin } from "./ops-plugin.js";
import { policyPlugin } from "./policy-plugin.js";
import { requestGuardsPlugin } from "./request-guards.js";
import { revokePlugin } from "./revoke-plugin.js";
import { runPlugin } from "./run-plugin.js";
import { searchPlugin } from "./search-plugin.js";
import { whoamiPlugin } from "./whoami-plugin.js";
import { eventsPlugin } from "./events-plugin.js";

/** Every route of the sidecar, behind the loopback and caller-token guards, over the one shared context. */
export function registerRoutes(app: FastifyInstance, options: { callerToken: string; context: SidecarContext }): void {
  void app.register(requestGuardsPlugin, { callerToken: options.callerToken });
  void app.register(errorHandlingPlugin);
  void app.register(sidecarContextPlugin, { context: options.context });
  for (const plugin of [
    identityPlugin,
    opsPlugin,
    searchPlugin,
    runPlugin,
    revokePlugin,
    whoamiPlugin,
    policyPlugin,
    eventsPlugin,
    openapiPlugin,
    healthPlugin,
  ]) {
    void app.register(plugin);
  }
}
