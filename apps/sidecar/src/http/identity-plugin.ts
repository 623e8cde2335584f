import type { IdentityAnswer } from "@eleven-integrations/sidecar-protocol";
import type { FastifyInstance } from "fastify";
import fastifyPlugin from "fastify-plugin";
import { SIDECAR_CONTEXT } from "./context.js";

/** `GET /v1/identity`: the bot's public key, the receipt key its writes' receipts verify with, and the registry release it runs. */
async function identityRoutes(app: FastifyInstance): Promise<void> {
  const { sidecar } = app;
  app.get(
    "/v1/identity",
    async (): Promise<IdentityAnswer> => ({
      public_key: sidecar.publicKey,
      receipt_key: sidecar.receiptKeys().publicKey,
      registry: sidecar.live.current().info,
    }),
  );
}

export const identityPlugin = fastifyPlugin(identityRoutes, { name: "identity", dependencies: [SIDECAR_CONTEXT], encapsulate: true, fastify: "5.x" });
