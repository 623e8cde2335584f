import type { FastifyBaseLogger } from "fastify";
import * as oauth from "oauth4webapi";
import { BrokerError } from "./broker-error.js";
import type { BrokerContext } from "./broker-context.js";
import type { OAuthTarget } from "./oauth-integration.js";

const OAUTH_ERROR_CODE = /^[A-Za-z0-9_.-]{1,64}$/;

/** An OAuth error code fit to show or put in a URL fragment; anything else becomes `fallback`. */
export function safeErrorCode(code: string | undefined, fallback: string): string {
  return code !== undefined && OAUTH_ERROR_CODE.test(code) ? code : fallback;
}

/**
 * Exchanges the authorization code (client secret by HTTP Basic, the PKCE
 * verifier) at the manifest's `token_url` through the broker's dispatcher.
 */
export async function exchangeCode(
  context: BrokerContext,
  target: OAuthTarget,
  callbackParameters: URLSearchParams,
  verifier: string,
): Promise<oauth.TokenEndpointResponse> {
  const options = { [oauth.customFetch]: context.fetch };
  const response = await oauth.authorizationCodeGrantRequest(
    target.authorizationServer,
    target.client,
    oauth.ClientSecretBasic(target.app.clientSecret),
    callbackParameters,
    context.redirectUri,
    verifier,
    options,
  );
  return oauth.processAuthorizationCodeResponse(target.authorizationServer, target.client, response);
}

/** Trades a refresh token for new tokens at the manifest's `token_url`. */
export async function refreshTokens(context: BrokerContext, target: OAuthTarget, refreshToken: string): Promise<oauth.TokenEndpointResponse> {
  const options = { [oauth.customFetch]: context.fetch };
  const response = await oauth.refreshTokenGrantRequest(
    target.authorizationServer,
    target.client,
    oauth.ClientSecretBasic(target.app.clientSecret),
    refreshToken,
    options,
  );
  return oauth.processRefreshTokenResponse(target.authorizationServer, target.client, response);
}

/**
 * What a failed token call becomes. The provider refusing the member's grant
 * (a 4xx OAuth error other than `invalid_client`) is `refused` (400); the
 * provider failing, being unreachable, answering nonsense, or refusing the
 * broker's own client credentials is `provider_error` (502). Only the error's
 * kind and the OAuth error code are logged, never its cause (a response body).
 */
export function tokenCallFailure(error: unknown, refused: "token_exchange_failed" | "refresh_failed", log: FastifyBaseLogger): BrokerError {
  if (error instanceof oauth.ResponseBodyError) {
    const code = safeErrorCode(error.error, "invalid_response");
    if (error.status >= 400 && error.status < 500 && code !== "invalid_client") {
      log.info({ oauthError: code, status: error.status }, "the provider refused the token request");
      return new BrokerError(refused, `the provider refused: ${code}`);
    }
    log.warn({ oauthError: code, status: error.status }, "the token endpoint failed");
    return new BrokerError("provider_error", code === "invalid_client" ? "the provider refused the broker's client credentials" : "the provider failed to issue tokens");
  }
  if (error instanceof oauth.WWWAuthenticateChallengeError) {
    log.warn({ status: error.status }, "the token endpoint challenged the broker's client authentication");
    return new BrokerError("provider_error", "the provider refused the broker's client credentials");
  }
  if (error instanceof oauth.OperationProcessingError) {
    log.warn({ kind: error.code ?? "invalid_response" }, "the token endpoint answered something unusable");
    return new BrokerError("provider_error", "the provider answered something the broker cannot use");
  }
  const name = error instanceof Error ? error.name : "Error";
  const timedOut = name === "TimeoutError" || name === "AbortError";
  log.warn({ kind: name }, timedOut ? "the token endpoint timed out" : "the token endpoint could not be reached");
  return new BrokerError("provider_error", timedOut ? "the provider did not answer in time" : "the provider could not be reached");
}
