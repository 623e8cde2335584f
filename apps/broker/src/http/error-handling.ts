import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import fastifyPlugin from "fastify-plugin";
import { BrokerError, type BrokerErrorCode } from "./broker-error.js";
import { ERROR_PAGE_HEADERS, renderErrorPage } from "./error-page.js";

/** fastify's own 4xx errors, by status: their messages may quote the request (a JSON parse error quotes the body), so fixed ones are sent. */
const FRAMEWORK_ERRORS: Record<number, [BrokerErrorCode, string]> = {
  404: ["not_found", "no such page"],
  405: ["method_not_allowed", "this method is not allowed here"],
  413: ["payload_too_large", "the body is too large"],
  415: ["unsupported_media_type", "the body must be JSON (content-type: application/json)"],
  503: ["service_unavailable", "the broker is shutting down; try again"],
};

/**
 * The one error handler: a `BrokerError` is answered as it says; fastify's
 * client errors get a fixed message; anything else is a 500 whose details
 * only reach the log. A browser (GET with `Accept: text/html`) gets a page,
 * everything else `{ error: { code, message } }`.
 */
function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (BrokerError.isInstance(error)) {
      if (error.statusCode >= 500) request.log.warn({ code: error.code }, "request failed upstream");
      else request.log.info({ code: error.code }, "request refused");
      return sendError(request, reply, error);
    }
    const status = typeof error.statusCode === "number" ? error.statusCode : 500;
    const known = FRAMEWORK_ERRORS[status];
    if (known !== undefined) return sendError(request, reply, new BrokerError(known[0], known[1]));
    if (status >= 400 && status < 500) {
      request.log.info({ code: error.code, statusCode: status }, "bad request");
      return sendError(request, reply, new BrokerError("bad_request", "the request is malformed"));
    }
    request.log.error({ err: error }, "request failed");
    return sendError(request, reply, new BrokerError("internal_error", "the broker failed; try again"));
  });
  app.setNotFoundHandler((request, reply) => sendError(request, reply, new BrokerError("not_found", "no such page")));
}

/** Not encapsulated: the handlers are the whole app's. */
export const errorHandlingPlugin = fastifyPlugin(async (app: FastifyInstance) => installErrorHandling(app), { name: "error-handling", fastify: "5.x" });

/** True for a browser navigation: it gets an HTML page rather than JSON. */
export function wantsHtml(request: FastifyRequest): boolean {
  if (request.method !== "GET" && request.method !== "HEAD") return false;
  const accept = request.headers.accept;
  return accept?.includes("text/html") ?? false;
}

function sendError(request: FastifyRequest, reply: FastifyReply, error: BrokerError): FastifyReply {
  reply.code(error.statusCode);
  if (error.retryAfterSeconds !== undefined) reply.header("retry-after", String(error.retryAfterSeconds));
  if (wantsHtml(request)) return reply.headers(ERROR_PAGE_HEADERS).send(renderErrorPage(error.statusCode, error.code, error.message));
  return reply
    .header("content-type", "application/json; charset=utf-8")
    .header("x-content-type-options", "nosniff")
    .send(JSON.stringify({ error: { ...error.details, code: error.code, message: error.message } }));
}
