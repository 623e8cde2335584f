import type { FastifyInstance, FastifyReply } from "fastify";
import * as oauth from "oauth4webapi";
import { isSameBrowser } from "./browser-binding.js";
import { BrokerError } from "../http/broker-error.js";
import { resolveOAuthTarget, type OAuthTarget } from "./oauth-integration.js";
import { openState } from "./oauth-state.js";
import { queryOf, single } from "../http/query.js";
import { checkReturnTo, returnAddress } from "./return-to.js";
import { sealTokens, tokenBundle } from "./token-bundle.js";
import { classifyTokenFailure, exchangeCode, safeErrorCode } from "./token-exchange.js";
import { identifyAccount } from "./connect-identity.js";
import { tenantTarget } from "./connect-tenant.js";

/** Why a flow whose state opened did not end in tokens: the app shows the member one of these. */
export type CallbackErrorCode = "access_denied" | "token_exchange_failed" | "provider_unavailable" | "invalid_callback";

/** A provider `error=` as one of our codes: the member said no, the provider is down, or something is wrong with the request. */
export function authorizationErrorCode(providerCode: string | undefined): CallbackErrorCode {
  if (providerCode === "access_denied") return "access_denied";
  if (providerCode === "temporarily_unavailable" || providerCode === "server_error") return "provider_unavailable";
  return "invalid_callback";
}

/**
 * `GET /connect/callback?code=&state=`: opens the state first (a state that
 * does not open is 400: no redirect, no token request), then requires the
 * browser that started the flow (its binding cookie; else 400, no token
 * request). From there on every failure goes back to `return_to#error=<code>`:
 * `access_denied`, `token_exchange_failed`, `provider_unavailable` or
 * `invalid_callback`; success is `return_to#tokens=<sealed>`.
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
    if (!isSameBrowser(request, state.browser)) {
      request.log.info({ integration: state.integration }, "a callback arrived in a browser that did not start the flow: refused");
      throw new BrokerError("browser_mismatch", "this connect attempt was started in another browser: start connecting again from this one");
    }
    // Re-checked: a return_to removed from the configuration since the flow started is not used.
    checkReturnTo(state.returnTo, broker.allowedReturnTo);
    const fail = (code: CallbackErrorCode, reason: string): FastifyReply => {
      request.log.info({ integration: state.integration, code }, reason);
      broker.onConnect?.({ integration: state.integration, outcome: { ok: false, code } });
      return reply.redirect(returnAddress(state.returnTo, "error", code), 302);
    };

    let target: OAuthTarget;
    try {
      target = tenantTarget(resolveOAuthTarget(broker, state.integration), state.connection);
    } catch {
      return fail("provider_unavailable", "the integration of this flow is no longer connectable here");
    }

    let parameters: URLSearchParams;
    try {
      parameters = oauth.validateAuthResponse(target.authorizationServer, target.client, query, sealed);
    } catch (error) {
      const issuer = query.get("iss");
      if (issuer !== null && issuer !== target.authorizationServer.issuer) return fail("invalid_callback", "the callback names another issuer (RFC 9207)");
      if (error instanceof oauth.AuthorizationResponseError) {
        const providerCode = safeErrorCode(error.error, "authorization_failed");
        request.log.info({ integration: target.manifest.id, oauthError: providerCode }, "the provider sent the member back with an error");
        return fail(authorizationErrorCode(error.error), "the authorization was not granted");
      }
      return fail("invalid_callback", "the callback is malformed");
    }
    const code = single(parameters, "code");
    if (code === undefined || code === "") return fail("invalid_callback", "the callback carries no authorization code");

    let tokens: oauth.TokenEndpointResponse;
    try {
      tokens = await exchangeCode(broker, target, parameters, state.verifier);
    } catch (error) {
      const failure = classifyTokenFailure(error, request.log);
      return fail(failure === "refused" ? "token_exchange_failed" : "provider_unavailable", "the code exchange failed");
    }
    const bundle = tokenBundle(target, tokens, undefined, state.connection);
    // Who the token is, asked right away: a token the provider will not say who it is never reaches the member.
    const identity = await identifyAccount(broker.executor, target.manifest, bundle.access_token, state.connection);
    if (identity.kind === "refused") return fail("token_exchange_failed", `the provider refused the new token at its identity op (${identity.code})`);
    if (identity.kind === "unavailable") return fail("provider_unavailable", `the provider's identity op did not answer usably (${identity.code})`);
    if (identity.kind === "identified") bundle.account = { id: identity.account.id, name: identity.account.name };
    const sealedTokens = sealTokens(target, bundle, state.clientKey, broker.stateKey);
    broker.onConnect?.({ integration: target.manifest.id, outcome: { ok: true, identified: identity.kind === "identified" } });
    request.log.info({ integration: target.manifest.id, identified: identity.kind === "identified" }, "connected: tokens sealed to the member client");
    return reply.redirect(returnAddress(state.returnTo, "tokens", sealedTokens), 302);
  });
}
