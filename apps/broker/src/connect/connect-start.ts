import type { FastifyInstance } from "fastify";
import * as oauth from "oauth4webapi";
import { bindBrowser } from "./browser-binding.js";
import { checkClientKey } from "./client-key.js";
import { scopeParameter } from "./oauth-dialect.js";
import { connectOps, connectScopes } from "./op-scopes.js";
import { resolveOAuthTarget } from "./oauth-integration.js";
import { sealState } from "./oauth-state.js";
import { tenantFromQuery, tenantTarget } from "./connect-tenant.js";
import { queryOf, single } from "../http/query.js";
import { checkReturnTo } from "./return-to.js";
import { BrokerError } from "../http/broker-error.js";
import { htmlHeaders } from "../http/html.js";
import type { OAuthTarget } from "./oauth-integration.js";
import { isSameBrowser } from "./browser-binding.js";
import { openState } from "./oauth-state.js";
import { clientKeyCode, isPrivateUseScheme, renderStartConfirmation } from "./start-confirmation.js";
import type { BrokerContext } from "../broker-context.js";

/**
 * `GET /connect/:id/start?client_key=&return_to=` (and `&<setting>=` for each
 * tenant setting the provider's OAuth URLs carry, and `&ops=a.b,c.d` for the ops the
 * member's grant will include, whose own `scopes` are asked too): checks the client key, `return_to`
 * and the tenant settings before anything else, then binds the flow to this browser (a
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
    const integration = resolveOAuthTarget(broker, request.params.id);
    // A tenant host (`https://{subdomain}.zendesk.com/oauth/...`): checked before a cookie or a state exists.
    const connection = tenantFromQuery(integration, query);
    const target = tenantTarget(integration, connection);
    const ops = connectOps(target.manifest, single(query, "ops"));

    const verifier = oauth.generateRandomCodeVerifier();
    const browser = bindBrowser(request, reply);
    const state = sealState(
      {
        integration: target.manifest.id,
        verifier,
        clientKey,
        returnTo,
        browser,
        ...(connection === undefined ? {} : { connection }),
        ...(ops.length === 0 ? {} : { ops }),
      },
      broker.stateKey,
      broker.now(),
    );
    if (isPrivateUseScheme(returnTo)) {
      // Finding 5: every app may claim a private-use scheme, so a link made by someone else must not
      // go on to the provider unseen: the member compares the code their own app shows first.
      const page = renderStartConfirmation({
        integration: target.manifest.id,
        integrationName: target.manifest.name,
        returnTo,
        code: clientKeyCode(clientKey),
        state,
      });
      return reply.code(200).headers(htmlHeaders([])).send(page);
    }
    return reply.redirect((await authorizeLocation(broker, target, state, verifier, ops)).href, 302);
  });

  app.addContentTypeParser("application/x-www-form-urlencoded", { parseAs: "string", bodyLimit: 8 * 1024 }, (_request, body, done) => {
    done(null, new URLSearchParams(String(body)));
  });

  /**
   * The member pressed "continue" on the confirmation page: only a same-origin form post
   * (a cross-site page cannot forge `Origin`, and the `SameSite=Lax` binding cookie is not
   * sent with a cross-site post) from the browser the state is bound to goes on.
   */
  app.post<{ Params: { id: string } }>("/connect/:id/start/confirm", async (request, reply) => {
    if (request.headers.origin !== new URL(broker.redirectUri).origin) {
      throw new BrokerError("browser_mismatch", "this confirmation did not come from the broker's own page: start connecting again from your app");
    }
    const form = request.body instanceof URLSearchParams ? request.body : new URLSearchParams();
    const sealed = single(form, "state");
    const opened = sealed === undefined ? undefined : openState(sealed, [...broker.stateKeys], broker.now());
    if (opened === undefined || !opened.ok || opened.state.integration !== request.params.id) {
      throw new BrokerError("invalid_state", "this confirmation is not one this broker issued, or it expired: start connecting again");
    }
    if (!isSameBrowser(request, opened.state.browser)) {
      throw new BrokerError("browser_mismatch", "this connect attempt was started in another browser: start connecting again from this one");
    }
    const target = tenantTarget(resolveOAuthTarget(broker, opened.state.integration), opened.state.connection);
    return reply.redirect((await authorizeLocation(broker, target, sealed as string, opened.state.verifier, opened.state.ops ?? [])).href, 303);
  });
}

/**
 * The provider's authorize URL for a sealed state: PKCE (S256), the scopes in the provider's spelling (the manifest's
 * own and those of the `ops` the connect named), the manifest's fixed parameters.
 */
async function authorizeLocation(broker: BrokerContext, target: OAuthTarget, state: string, verifier: string, ops: readonly string[]): Promise<URL> {
  const location = new URL(target.endpoints.authorize_url);
  for (const [name, value] of Object.entries(target.dialect.authorizeParams)) location.searchParams.set(name, value);
  location.searchParams.set("response_type", "code");
  location.searchParams.set("client_id", target.app.clientId);
  location.searchParams.set("redirect_uri", broker.redirectUri);
  const scopes = connectScopes(target.manifest, ops);
  if (scopes.length > 0) location.searchParams.set("scope", scopeParameter(scopes, target.dialect));
  location.searchParams.set("state", state);
  location.searchParams.set("code_challenge", await oauth.calculatePKCECodeChallenge(verifier));
  location.searchParams.set("code_challenge_method", "S256");
  return location;
}
