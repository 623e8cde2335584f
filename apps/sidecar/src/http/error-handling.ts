import type { FastifyError, FastifyInstance } from "fastify";
import fastifyPlugin from "fastify-plugin";
import { OPENAPI_PATH, PROBE_PATHS, SIDECAR_ROUTES } from "@eleven-integrations/sidecar-protocol";
import { httpErrorBody, type HttpErrorCode } from "./http-error.js";

const ROUTES = [
  ...Object.values(SIDECAR_ROUTES).map((route) => `${route.method} ${route.path}`),
  `GET ${OPENAPI_PATH}`,
  `GET ${PROBE_PATHS.health}`,
  `GET ${PROBE_PATHS.ready}`,
].join(", ");

const BY_FASTIFY_CODE: Record<string, { statusCode: number; code: HttpErrorCode; message: string }> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { statusCode: 415, code: "unsupported_media_type", message: "bodies are JSON only: send Content-Type: application/json" },
  FST_ERR_CTP_BODY_TOO_LARGE: { statusCode: 413, code: "body_too_large", message: "the body is larger than 256 KiB" },
  FST_ERR_CTP_EMPTY_JSON_BODY: { statusCode: 400, code: "invalid_json", message: "the body is empty" },
  FST_ERR_CTP_INVALID_JSON_BODY: { statusCode: 400, code: "invalid_json", message: "the body is not valid JSON" },
};

/**
 * One shape for every answer that is not an envelope: `{ error: { code, message } }`.
 * Messages are the sidecar's own, never an error's, which could quote the body.
 */
function registerErrorHandlers(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const known = typeof error.code === "string" ? BY_FASTIFY_CODE[error.code] : undefined;
    if (known !== undefined) return reply.code(known.statusCode).send(httpErrorBody(known.code, known.message));
    const statusCode = typeof error.statusCode === "number" ? error.statusCode : 500;
    if (statusCode >= 400 && statusCode < 500) {
      // A bad Content-Length and the like.
      request.log.info({ err: error }, "request refused");
      return reply.code(400).send(httpErrorBody("bad_request", "the request could not be read"));
    }
    request.log.error({ err: error }, "request failed");
    return reply.code(500).send(httpErrorBody("internal_error", "the sidecar failed to answer"));
  });
  app.setNotFoundHandler((_request, reply) => reply.code(404).send(httpErrorBody("not_found", `no such route: the sidecar serves ${ROUTES}`)));
}

/** Not encapsulated: the handlers are the whole app's. */
export const errorHandlingPlugin = fastifyPlugin(async (app: FastifyInstance) => registerErrorHandlers(app), { name: "error-handling", fastify: "5.x" });
