import { sealToPublicKey } from "@eleven-integrations/grants";
import type { TokenEndpointResponse } from "oauth4webapi";
import { bundleFieldsOf } from "./oauth-dialect.js";
import type { OAuthTarget } from "./oauth-integration.js";
import { accountBinding, refreshBinding, revokeProof } from "./token-proof.js";

/** What the member client opens with its key: the JSON sealed into `#tokens=` and `{ tokens }`. */
export interface TokenBundle {
  v: 1;
  integration: string;
  access_token: string;
  token_type: string;
  expires_in?: number;
  refresh_token?: string;
  scope?: string;
  /** The answer members the manifest's `bundle_fields` names (Stripe's `stripe_user_id`), keyed by their path. */
  fields?: Record<string, string | number | boolean>;
  /** Who the token acts as, from the manifest's identity op run right after the exchange. */
  account?: { id: string; name: string };
  /** The tenant settings the connection was made on (`{ subdomain: "acme" }`): the member's client puts them in the grant. */
  connection?: Record<string, string>;
  /** The broker's binding of `refresh_token` to the client key it was sealed to: `POST /connect/:id/refresh` wants it. */
  refresh_binding?: string;
  /** The broker's proof that it issued `access_token` (for Stripe's account): `POST /connect/:id/revoke` takes it. */
  revoke_proof?: string;
  /** The broker's binding of `account` to the client key it was sealed to: an event registration carries it. */
  account_binding?: string;
}

/**
 * The bundle for a token response; `previousRefreshToken` is kept when a
 * refresh answers without a new one (the provider does not rotate).
 */
export function tokenBundle(
  target: OAuthTarget,
  response: TokenEndpointResponse,
  previousRefreshToken?: string,
  connection?: Readonly<Record<string, string>>,
): TokenBundle {
  const bundle: TokenBundle = { v: 1, integration: target.manifest.id, access_token: response.access_token, token_type: response.token_type };
  if (typeof response.expires_in === "number") bundle.expires_in = response.expires_in;
  const refreshToken = response.refresh_token ?? previousRefreshToken;
  if (refreshToken !== undefined) bundle.refresh_token = refreshToken;
  if (typeof response.scope === "string") bundle.scope = response.scope;
  const fields = bundleFieldsOf(response, target.dialect);
  if (fields !== undefined) bundle.fields = fields;
  if (connection !== undefined) bundle.connection = { ...connection };
  return bundle;
}

/** The account a revocation of this bundle's token names, where its dialect names one (Stripe's `stripe_user_id`). */
export function revokedAccountOf(target: OAuthTarget, bundle: TokenBundle): string | undefined {
  const account = bundle.fields?.["stripe_user_id"];
  return target.endpoints.revocation?.dialect === "stripe" && typeof account === "string" ? account : undefined;
}

/**
 * Adds what the broker vouches for (`refresh_binding` to `clientKey`, `revoke_proof`),
 * then seals the bundle to the member client's key (`crypto_box_seal`, unpadded
 * base64url): only that client opens it.
 */
export function sealTokens(target: OAuthTarget, bundle: TokenBundle, clientKey: string, stateKey: string): string {
  const integration = target.manifest.id;
  const proven: TokenBundle = {
    ...bundle,
    revoke_proof: revokeProof(stateKey, { integration, accessToken: bundle.access_token, account: revokedAccountOf(target, bundle) }),
  };
  if (bundle.account !== undefined) proven.account_binding = accountBinding(stateKey, { integration, account: bundle.account.id, clientKey });
  if (bundle.refresh_token !== undefined) proven.refresh_binding = refreshBinding(stateKey, { integration, refreshToken: bundle.refresh_token, clientKey });
  return sealToPublicKey(JSON.stringify(proven), clientKey);
}
