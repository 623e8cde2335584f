import type { FastifyInstance } from "fastify";
import fastifyPlugin from "fastify-plugin";
import { createCallerAuth } from "../guards/caller-auth.js";
import { httpErrorBody } from "./http-error.js";
import { checkLoopback } from "../guards/loopback-guard.js";

/**
 * The first hook of every request, unknown routes included, before any body is
 * read: `Host` and `Origin` name this loopback address (else 403), then the
 * caller token (else 401). A refused caller is disconnected (`Connection:
 * close`): nothing it still sends is read. Answers that pass are never cached.
 */
function registerRequestGuards(app: FastifyInstance, callerToken: string): void {
  const authorized = createCallerAuth(callerToken);
  // A callback hook, not an async one: it runs on every request, and needs no promise.
  app.addHook("onRequest", (request, reply, done) => {
    const verdict = checkLoopback(request.headers.host, request.headers.origin, request.socket.localPort);
    if (!verdict.ok) {
      reply.code(403).header("connection", "close").send(httpErrorBody(verdict.code, verdict.message));
      return;
    }
    if (!authorized(request.headers.authorization)) {
      reply
        .code(401)
        .header("connection", "close")
        .header("www-authenticate", 'Bearer realm="eleven-sidecar"')
        .send(httpErrorBody("unauthorized", "send Authorization: Bearer <caller token>, the token in the sidecar's caller-token file"));
      return;
    }
    reply.header("cache-control", "no-store");
    done();
  });
}

/** Not encapsulated: the hook guards every route of the app, and its 404s. */
export const requestGuardsPlugin = fastifyPlugin<{ callerToken: string }>(async (app, { callerToken }) => registerRequestGuards(app, callerToken), {
  name: "request-guards",
  fastify: "5.x",
});
