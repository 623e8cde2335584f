import { resolveTenantUrl } from "@eleven-integrations/executor";
import { BrokerError } from "../http/broker-error.js";
import { single } from "../http/query.js";
import type { OAuthTarget } from "./oauth-integration.js";

/** A connection's tenant settings (`{ subdomain: "acme" }`): what the state seals and the bundle carries. */
export type TenantConnection = Record<string, string>;

/** The manifest's tenant settings whose placeholder appears in its authorize or token URL (Zendesk's `subdomain`); Mailchimp's `dc`, learned after OAuth, is not one. */
export function oauthTenantSettings(target: OAuthTarget): string[] {
  const urls = [target.endpoints.authorize_url, target.endpoints.token_url];
  return Object.keys(target.manifest.auth.tenant ?? {}).filter((name) => urls.some((url) => url.includes(`{${name}}`)));
}

/** Of a caller's `connection`, the settings the OAuth URLs carry (undefined when they carry none); `tenantTarget` checks them. */
export function oauthTenant(target: OAuthTarget, connection: Readonly<Record<string, string>> | undefined): TenantConnection | undefined {
  const settings = oauthTenantSettings(target);
  if (settings.length === 0) return undefined;
  return Object.fromEntries(
    settings
      .filter((name) => connection !== undefined && Object.hasOwn(connection, name))
      .map((name) => [name, (connection as Record<string, string>)[name] as string]),
  );
}

/**
 * The tenant settings `/connect/:id/start` takes as query parameters named like the setting
 * (`?subdomain=acme`), checked with the executor's tenant rules; undefined when the OAuth URLs
 * name no tenant. A missing or invalid one is 400 `invalid_query` naming it (never its value).
 */
export function tenantFromQuery(target: OAuthTarget, query: URLSearchParams): TenantConnection | undefined {
  const settings = oauthTenantSettings(target);
  if (settings.length === 0) return undefined;
  const connection: TenantConnection = {};
  for (const name of settings) {
    const value = single(query, name);
    if (value !== undefined) connection[name] = value;
  }
  tenantTarget(target, connection, "invalid_query", "connect with", (name) => `?${name}=`);
  return connection;
}

/**
 * The target with its authorize and token URLs filled from the connection (and the issuer
 * the callback expects, the filled authorize URL's origin). A setting the URLs need that is
 * missing or breaks the tenant rules is a `code` error naming the setting.
 */
export function tenantTarget(
  target: OAuthTarget,
  connection: Readonly<TenantConnection> | undefined,
  code: "invalid_query" | "invalid_body" = "invalid_body",
  verb = "send",
  spell: (name: string) => string = (name) => `connection { ${name} }`,
): OAuthTarget {
  if (oauthTenantSettings(target).length === 0) return target;
  const authorize = resolveTenantUrl(target.manifest, target.endpoints.authorize_url, connection);
  const token = resolveTenantUrl(target.manifest, target.endpoints.token_url, connection);
  if (!authorize.ok || !token.ok) {
    const problems = [...(authorize.ok ? [] : authorize.problems), ...(token.ok ? [] : token.problems)];
    const named = new Map(problems.map((problem) => [problem.setting, problem.message]));
    const listed = [...named].map(([name, message]) => `${name} ${message}`).join("; ");
    throw new BrokerError(code, `${target.manifest.name} connects on your own host: ${verb} ${[...named.keys()].map(spell).join(", ")} (${listed})`);
  }
  return {
    ...target,
    endpoints: { ...target.endpoints, authorize_url: authorize.url, token_url: token.url },
    authorizationServer: {
      ...target.authorizationServer,
      issuer: new URL(authorize.url).origin,
      authorization_endpoint: authorize.url,
      token_endpoint: token.url,
    },
  };
}
