import type { FastifyInstance } from "fastify";
import type { TokenEndpointResponse } from "oauth4webapi";
import { z } from "zod";
import { BrokerError } from "../http/broker-error.js";
import { checkClientKey } from "./client-key.js";
import { resolveOAuthTarget } from "./oauth-integration.js";
import { refreshOnce } from "../state/refresh-flight.js";
import { sealTokens, tokenBundle } from "./token-bundle.js";
import { verifyRefreshBinding } from "./token-proof.js";
import { refreshFailure, refreshTokens } from "./token-exchange.js";
import { oauthTenant, tenantTarget } from "./connect-tenant.js";

const MAX_REFRESH_TOKEN_LENGTH = 16 * 1024;
const bodySchema = z.strictObject({
  refresh_token: z.string().min(1).max(MAX_REFRESH_TOKEN_LENGTH),
  client_key: z.string(),
  /** The bundle's `connection`, for a token URL on the member's tenant host (Zendesk's `{subdomain}`). */
  connection: z.record(z.string().regex(/^[a-z][a-z0-9_]{0,31}$/), z.string().max(256)).optional(),
  /** The bundle's `refresh_binding`: this refresh token was sealed to this client key. Checked after the key, before any budget is spent. */
  refresh_binding: z.string().max(128).optional(),
});

/**
 * `POST /connect/:id/refresh` `{ refresh_token, client_key, connection? }` -> `{ tokens }`
 * (`connection`: the bundle's tenant settings, for a token URL on the member's tenant host),
 * sealed to the client key, which is checked before the provider is called.
 * Provider calls are limited globally and per address (checked first), per
 * client key and per refresh token (429, `Retry-After`); callers who join a
 * refresh in flight share its outcome and spend nothing.
 * Browsers may call it from the web origins of the allowed `return_to` values.
 */
export async function connectRefresh(app: FastifyInstance): Promise<void> {
  const { broker } = app;

  app.options("/connect/:id/refresh", async (request, reply) => {
    const origin = request.headers.origin;
    if (origin !== undefined && broker.allowedOrigins.has(origin)) {
      reply.headers({
        "access-control-allow-origin": origin,
        "access-control-allow-methods": "POST",
        "access-control-allow-headers": "content-type",
        "access-control-max-age": "600",
      });
    }
    return reply.header("vary", "Origin").code(204).send();
  });

  app.post<{ Params: { id: string } }>("/connect/:id/refresh", { bodyLimit: 32 * 1024 }, async (request, reply) => {
    const origin = request.headers.origin;
    reply.header("vary", "Origin");
    if (origin !== undefined && broker.allowedOrigins.has(origin)) reply.header("access-control-allow-origin", origin);
    // Checked first, before anything is kept for a caller-chosen value.
    const admitted = await broker.refreshLimiter.admit(request.ip, broker.now() * 1000);
    if (!admitted.ok)
      throw new BrokerError("rate_limited", "too many refreshes from this address or in all: try again later", {
        retryAfterSeconds: admitted.retryAfterSeconds,
      });
    if (!(request.headers["content-type"] ?? "").toLowerCase().startsWith("application/json")) {
      throw new BrokerError("unsupported_media_type", "the body must be JSON (content-type: application/json)");
    }
    const body = bodySchema.safeParse(request.body);
    if (!body.success)
      throw new BrokerError(
        "invalid_body",
        "the body must be { refresh_token, client_key, refresh_binding, connection? }: strings and the bundle's connection, nothing else",
      );
    const clientKey = checkClientKey(body.data.client_key);
    const integration = resolveOAuthTarget(broker, request.params.id);
    const connection = oauthTenant(integration, body.data.connection);
    const target = tenantTarget(integration, connection);
    // A refresh token refreshes only for the client key it was sealed to (third review): a leaked one mints
    // nothing for another key, and without a binding nothing reaches the provider or spends a budget.
    const bound = verifyRefreshBinding(broker.stateKeys, body.data.refresh_binding, {
      integration: target.manifest.id,
      refreshToken: body.data.refresh_token,
      clientKey,
    });
    if (!bound)
      throw new BrokerError(
        "refresh_not_bound",
        "this refresh token is not bound to this client key: refresh with the client key that connected and the bundle's refresh_binding",
      );
    const caller = { address: request.ip, clientKey, refreshToken: body.data.refresh_token };

    // One provider call per refresh token, however many callers (and broker instances) ask at once;
    // only the caller that makes it spends the budgets: the ones who join share its outcome.
    const tokens: TokenEndpointResponse = await refreshOnce(
      broker.refreshFlights,
      target.manifest.id,
      body.data.refresh_token,
      async () => {
        const decision = await broker.refreshLimiter.take(caller, broker.now() * 1000);
        if (!decision.ok) {
          request.log.info({ integration: target.manifest.id, retryAfter: decision.retryAfterSeconds }, "refresh refused: over the limit");
          throw new BrokerError("rate_limited", "too many refreshes from this address, for this client or of this refresh token: try again later", {
            retryAfterSeconds: decision.retryAfterSeconds,
          });
        }
        return refreshTokens(broker, target, body.data.refresh_token);
      },
      (error) => refreshFailure(error, request.log),
      request.log,
    );
    const sealed = sealTokens(target, tokenBundle(target, tokens, body.data.refresh_token, connection), clientKey, broker.stateKey);
    return reply
      .code(200)
      .header("content-type", "application/json; charset=utf-8")
      .send(JSON.stringify({ tokens: sealed }));
  });
}
