import type { FastifyInstance } from "fastify";
import { connectCallback } from "./connect-callback.js";
import { connectRefresh } from "./connect-refresh.js";
import { connectStart } from "./connect-start.js";

/**
 * The OAuth connect routes. Every answer under `/connect/` may carry a state, a
 * code or tokens, so none is stored by a cache or leaks through a Referer.
 */
export async function connectRoutes(app: FastifyInstance): Promise<void> {
  app.addHook("onRequest", async (_request, reply) => {
    reply.headers({ "cache-control": "no-store", pragma: "no-cache", "referrer-policy": "no-referrer", "x-content-type-options": "nosniff" });
  });
  await app.register(connectStart);
  await app.register(connectCallback);
  await app.register(connectRefresh);
}
