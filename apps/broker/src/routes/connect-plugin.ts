import type { FastifyInstance } from "fastify";
import fastifyPlugin from "fastify-plugin";
import { BROKER_CONTEXT } from "../broker-context.js";
import { connectCallback } from "../connect/connect-callback.js";
import { connectRefresh } from "../connect/connect-refresh.js";
import { connectRevoke } from "../connect/connect-revoke.js";
import { connectStart } from "../connect/connect-start.js";

/**
 * The OAuth connect routes. Every answer under `/connect/` may carry a state, a
 * code or tokens, so none is stored by a cache or leaks through a Referer.
 */
async function connectRoutes(app: FastifyInstance): Promise<void> {
  app.addHook("onRequest", async (_request, reply) => {
    reply.headers({ "cache-control": "no-store", pragma: "no-cache", "referrer-policy": "no-referrer", "x-content-type-options": "nosniff" });
  });
  await app.register(connectStart);
  await app.register(connectCallback);
  await app.register(connectRefresh);
  await app.register(connectRevoke);
}

/** Encapsulated: its no-store hook covers `/connect/*` only. */
export const connectPlugin = fastifyPlugin(connectRoutes, { name: "connect", dependencies: [BROKER_CONTEXT], encapsulate: true, fastify: "5.x" });
