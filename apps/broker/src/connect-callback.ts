import type { FastifyInstance } from "fastify";
import * as oauth from "oauth4webapi";
import { BrokerError } from "./broker-error.js";
import { resolveOAuthTarget } from "./oauth-integration.js";
import { openState } from "./oauth-state.js";
import { queryOf, single } from "./query.js";
import { checkReturnTo, returnAddress } from "./return-to.js";
import { sealTokens, tokenBundle } from "./token-bundle.js";
import { exchangeCode, safeErrorCode, tokenCallFailure } from "./token-exchange.js";

/**
 * `GET /connect/callback?code=&state=`: opens the state first (nothing else
 * happens for a state that does not open: 400, no redirect, no token request),
 * checks the RFC 9207 issuer, sends a provider `error=` back to `return_to`, and
 * otherwise exchanges the code and redirects to `return_to#tokens=<sealed>`.
 */
export async function connectCallback(app: FastifyInstance): Promise<void> {
  const { broker } = app;
  // No HEAD twin: a link checker's HEAD must not redeem the code.
  app.get("/connect/callback", { exposeHeadRoute: false }, async (request, reply) => {
    const query = queryOf(request.url);
    const sealed = single(query, "state");
    if (sealed === undefined) throw new BrokerError("missing_state", "the callback carries no state (or more than one): start connecting again");
    const opened = openState(sealed, [...broker.stateKeys], broker.now());
    if (!opened.ok) {
      throw opened.reason === "expired"
        ? new BrokerError("state_expired", "this connect attempt expired: start connecting again")
        : new BrokerError("invalid_state", "the state of this callback is not one this broker issued: start connecting again");
    }
    const { state } = opened;
    // Re-checked: a return_to removed from the configuration since the flow started is not used.
    checkReturnTo(state.returnTo, broker.allowedReturnTo);
    const target = resolveOAuthTarget(broker, state.integration);

    let parameters: URLSearchParams;
    try {
      parameters = oauth.validateAuthResponse(target.authorizationServer, target.client, query, sealed);
    } catch (error) {
      if (error instanceof oauth.AuthorizationResponseError) {
        const code = safeErrorCode(error.error, "authorization_failed");
        request.log.info({ integration: target.manifest.id, oauthError: code }, "the provider sent the member back with an error");
        return reply.redirect(returnAddress(state.returnTo, "error", code), 302);
      }
      const issuer = query.get("iss");
      if (issuer !== null && issuer !== target.authorizationServer.issuer) {
        throw new BrokerError("issuer_mismatch", "the callback names another issuer than the integration's authorization server (RFC 9207): start connecting again");
      }
      throw new BrokerError("invalid_callback", "the callback is malformed: start connecting again");
    }
    if (single(parameters, "code") === undefined) throw new BrokerError("invalid_callback", "the callback carries no authorization code");

    let tokens: oauth.TokenEndpointResponse;
    try {
      tokens = await exchangeCode(broker, target, parameters, state.verifier);
    } catch (error) {
      throw tokenCallFailure(error, "token_exchange_failed", request.log);
    }
    const sealedTokens = sealTokens(tokenBundle(target.manifest.id, tokens), state.clientKey);
    request.log.info({ integration: target.manifest.id }, "connected: tokens sealed to the member client");
    return reply.redirect(returnAddress(state.returnTo, "tokens", sealedTokens), 302);
  });
}
