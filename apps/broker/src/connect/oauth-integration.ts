import type { Manifest } from "@eleven-integrations/schema";
import type * as oauth from "oauth4webapi";
import { BrokerError } from "../http/broker-error.js";
import type { BrokerContext } from "../broker-context.js";
import type { OAuthApp } from "./oauth-app.js";
import { dialectFetch, dialectOf, type OAuthDialect } from "./oauth-dialect.js";
import type { OutboundFetch } from "./outbound-fetch.js";

/** An integration the broker can run an OAuth flow for: its manifest, its OAuth block and the app. */
export interface OAuthTarget {
  manifest: Manifest;
  endpoints: NonNullable<Manifest["auth"]["oauth"]>;
  app: OAuthApp;
  authorizationServer: oauth.AuthorizationServer;
  client: oauth.Client;
  /** What the provider needs beyond RFC 6749 (the manifest's dialect fields). */
  dialect: OAuthDialect;
  /** The broker's outbound fetch, normalising this provider's answers into RFC 6749 before oauth4webapi reads them. */
  fetch: OutboundFetch;
}

/**
 * ID tokens come from the token endpoint over TLS, so oauth4webapi checks their
 * claims, not their signature; any asymmetric algorithm a provider picks is accepted.
 */
const ID_TOKEN_ALGORITHMS = ["RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA", "Ed25519"];

/** The integration `id` as an OAuth target, or the refusal: unknown 404, PAT-only 400, no app 409. */
export function resolveOAuthTarget(context: BrokerContext, id: string): OAuthTarget {
  const manifest = context.registry.get(id);
  if (manifest === undefined) throw new BrokerError("unknown_integration", `no integration "${safeId(id)}" in this registry`);
  const endpoints = manifest.auth.oauth;
  if (endpoints === undefined) throw new BrokerError("oauth_not_supported", `${manifest.name} connects with a personal token, not OAuth`);
  const app = Object.hasOwn(context.oauthApps, manifest.id) ? context.oauthApps[manifest.id] : undefined;
  if (app === undefined) throw new BrokerError("oauth_unavailable", `this broker has no OAuth app for ${manifest.name}; use a personal token`);
  const dialect = dialectOf(endpoints);
  return {
    manifest,
    endpoints,
    app,
    dialect,
    fetch: dialectFetch(context.fetch, dialect),
    authorizationServer: {
      // The expected issuer (RFC 9207 `iss`, ID token `iss`) is the origin of authorize_url.
      issuer: new URL(endpoints.authorize_url).origin,
      authorization_endpoint: endpoints.authorize_url,
      token_endpoint: endpoints.token_url,
      id_token_signing_alg_values_supported: ID_TOKEN_ALGORITHMS,
    },
    client: { client_id: app.clientId },
  };
}

/** An id as it may appear in a message: a registry id, or a placeholder for anything else. */
function safeId(id: string): string {
  return /^[a-z][a-z0-9-]{0,39}$/.test(id) ? id : "(invalid id)";
}
