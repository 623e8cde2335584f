import type { FastifyInstance } from "fastify";
import fastifyPlugin from "fastify-plugin";
import { opsBodySchema, parseBody } from "@eleven-integrations/sidecar-protocol";
import { opsPalette } from "../run/ops-palette.js";
import { listingContext, SIDECAR_CONTEXT } from "./context.js";
import { httpErrorBody, INVALID_BODY_MESSAGE } from "./http-error.js";

/** `POST /v1/ops { grant }`: the palette of ops the grant enables. */
async function opsRoutes(app: FastifyInstance): Promise<void> {
  const { sidecar } = app;
  app.post("/v1/ops", async (request, reply) => {
    const parsed = parseBody(opsBodySchema, request.body);
    if (!parsed.ok) return reply.code(400).send(httpErrorBody("invalid_body", INVALID_BODY_MESSAGE, parsed.issues));
    return await opsPalette(parsed.value, listingContext(sidecar));
  });
}

export const opsPlugin = fastifyPlugin(opsRoutes, { name: "ops", dependencies: [SIDECAR_CONTEXT], encapsulate: true, fastify: "5.x" });
