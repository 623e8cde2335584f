import { createRequire } from "node:module";
import { OPENAPI_PATH } from "@eleven-integrations/sidecar-protocol";
import type { FastifyInstance } from "fastify";
import fastifyPlugin from "fastify-plugin";

/** The description exactly as the protocol package ships it (generated from the schemas the routes validate with). */
const DESCRIPTION = JSON.stringify(createRequire(import.meta.url)("@eleven-integrations/sidecar-protocol/openapi.json"));

/** `GET /v1/openapi.json`: the OpenAPI 3.1 description of these routes, behind the caller token like every route. */
async function openapiRoutes(app: FastifyInstance): Promise<void> {
  app.get(OPENAPI_PATH, async (_request, reply) => reply.type("application/json; charset=utf-8").send(DESCRIPTION));
}

export const openapiPlugin = fastifyPlugin(openapiRoutes, { name: "openapi", encapsulate: true, fastify: "5.x" });
