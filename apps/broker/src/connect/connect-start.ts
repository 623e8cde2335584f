import type { FastifyInstance } from "fastify";
import * as oauth from "oauth4webapi";
import { bindBrowser } from "./browser-binding.js";
import { checkClientKey } from "./client-key.js";
import { scopeParameter } from "./oauth-dialect.js";
import { resolveOAuthTarget } from "./oauth-integration.js";
import { sealState } from "./oauth-state.js";
import { queryOf, single } from "../http/query.js";
import { checkReturnTo } from "./return-to.js";

/**
 * `GET /connect/:id/start?client_key=&return_to=`: checks the client key and
 * `return_to` before anything else, then binds the flow to this browser (a
 * `__Host-` cookie whose nonce's digest is sealed into `state`) and redirects
 * to the provider with PKCE (S256), the scopes in the provider's spelling and
 * the manifest's fixed authorize parameters.
 */
export async function connectStart(app: FastifyInstance): Promise<void> {
  const { broker } = app;
  app.get<{ Params: { id: string } }>("/connect/:id/start", { exposeHeadRoute: false }, async (request, reply) => {
    const query = queryOf(request.url);
    const clientKey = checkClientKey(single(query, "client_key"));
    const returnTo = checkReturnTo(single(query, "return_to"), broker.allowedReturnTo);
    const target = resolveOAuthTarget(broker, request.params.id);

    const verifier = oauth.generateRandomCodeVerifier();
    const browser = bindBrowser(request, reply);
    const state = sealState({ integration: target.manifest.id, verifier, clientKey, returnTo, browser }, broker.stateKey, broker.now());
    const location = new URL(target.endpoints.authorize_url);
    for (const [name, value] of Object.entries(target.dialect.authorizeParams)) location.searchParams.set(name, value);
    location.searchParams.set("response_type", "code");
    location.searchParams.set("client_id", target.app.clientId);
    location.searchParams.set("redirect_uri", broker.redirectUri);
    if (target.endpoints.scopes.length > 0) location.searchParams.set("scope", scopeParameter(target.endpoints.scopes, target.dialect));
    location.searchParams.set("state", state);
    location.searchParams.set("code_challenge", await oauth.calculatePKCECodeChallenge(verifier));
    location.searchParams.set("code_challenge_method", "S256");
    return reply.redirect(location.href, 302);
  });
}
