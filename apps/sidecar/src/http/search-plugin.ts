import type { FastifyInstance } from "fastify";
import fastifyPlugin from "fastify-plugin";
import { parseBody, searchBodySchema } from "@eleven-integrations/sidecar-protocol";
import { createSearch } from "../search/search-readiness.js";
import { listingContext, SIDECAR_CONTEXT } from "./context.js";
import { httpErrorBody, INVALID_BODY_MESSAGE } from "./http-error.js";

/** `POST /v1/search { q, grants }`: ranked ops with each one's readiness. */
async function searchRoutes(app: FastifyInstance): Promise<void> {
  const { sidecar } = app;
  const search = createSearch();
  app.post("/v1/search", async (request, reply) => {
    const parsed = parseBody(searchBodySchema, request.body);
    if (!parsed.ok) return reply.code(400).send(httpErrorBody("invalid_body", INVALID_BODY_MESSAGE, parsed.issues));
    return search(parsed.value, listingContext(sidecar));
  });
}

export const searchPlugin = fastifyPlugin(searchRoutes, { name: "search", dependencies: [SIDECAR_CONTEXT], encapsulate: true, fastify: "5.x" });
