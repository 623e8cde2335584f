import type { FastifyInstance } from "fastify";
import fastifyPlugin from "fastify-plugin";
import { parseBody, policyBodySchema } from "@eleven-integrations/sidecar-protocol";
import { policyReview } from "../run/policy-review.js";
import { listingContext, SIDECAR_CONTEXT } from "./context.js";
import { httpErrorBody, INVALID_BODY_MESSAGE } from "./http-error.js";

/** `POST /v1/policy { grant, approvals? }`: what each op of the grant will meet, and the approvals' budgets left. */
async function policyRoutes(app: FastifyInstance): Promise<void> {
  const { sidecar } = app;
  app.post("/v1/policy", async (request, reply) => {
    const parsed = parseBody(policyBodySchema, request.body);
    if (!parsed.ok) return reply.code(400).send(httpErrorBody("invalid_body", INVALID_BODY_MESSAGE, parsed.issues));
    return await policyReview(parsed.value, { ...listingContext(sidecar), openApproval: sidecar.openApproval });
  });
}

export const policyPlugin = fastifyPlugin(policyRoutes, { name: "policy", dependencies: [SIDECAR_CONTEXT], encapsulate: true, fastify: "5.x" });
