import type { FastifyBaseLogger } from "fastify";
import * as oauth from "oauth4webapi";
import { BrokerError } from "../http/broker-error.js";
import type { BrokerContext } from "../broker-context.js";
import { clientAuthentication } from "./oauth-dialect.js";
import type { OAuthTarget } from "./oauth-integration.js";

const OAUTH_ERROR_CODE = /^[A-Za-z0-9_.-]{1,64}$/;

/** An OAuth error code fit to show or put in a URL fragment; anything else becomes `fallback`. */
export function safeErrorCode(code: string | undefined, fallback: string): string {
  return code !== undefined && OAUTH_ERROR_CODE.test(code) ? code : fallback;
}

/**
 * Exchanges the authorization code (the client secret as the manifest's
 * dialect says, the PKCE verifier) at the manifest's `token_url` through the
 * broker's dispatcher; the provider's answer is normalised before oauth4webapi checks it.
 */
export async function exchangeCode(
  context: BrokerContext,
  target: OAuthTarget,
  callbackParameters: URLSearchParams,
  verifier: string,
): Promise<oauth.TokenEndpointResponse> {
  const options = { [oauth.customFetch]: target.fetch };
  const response = await oauth.authorizationCodeGrantRequest(
    target.authorizationServer,
    target.client,
    clientAuthentication(target.dialect, target.app.clientSecret),
    callbackParameters,
    context.redirectUri,
    verifier,
    options,
  );
  return oauth.processAuthorizationCodeResponse(target.authorizationServer, target.client, response);
}

/** Trades a refresh token for new tokens at the manifest's `token_url`. */
export async function refreshTokens(_context: BrokerContext, target: OAuthTarget, refreshToken: string): Promise<oauth.TokenEndpointResponse> {
  const options = { [oauth.customFetch]: target.fetch };
  const response = await oauth.refreshTokenGrantRequest(
    target.authorizationServer,
    target.client,
    clientAuthentication(target.dialect, target.app.clientSecret),
    refreshToken,
    options,
  );
  return oauth.processRefreshTokenResponse(target.authorizationServer, target.client, response);
}

/** How a failed token call ends: the provider refused the member's code or token, or it could not be used. */
export type TokenFailure = "refused" | "unavailable";

/**
 * What a failed token call becomes. The provider refusing the member's grant
 * (a 4xx OAuth error other than `invalid_client`) is `refused`; the provider
 * failing, timing out, being unreachable, answering nonsense, or refusing the
 * broker's own client credentials is `unavailable`. Only the error's kind and
 * the OAuth error code are logged, never its cause (a response body).
 */
export function classifyTokenFailure(error: unknown, log: FastifyBaseLogger): TokenFailure {
  if (error instanceof oauth.ResponseBodyError) {
    const code = safeErrorCode(error.error, "invalid_response");
    if (error.status >= 400 && error.status < 500 && code !== "invalid_client") {
      log.info({ oauthError: code, status: error.status }, "the provider refused the token request");
      return "refused";
    }
    log.warn(
      { oauthError: code, status: error.status },
      code === "invalid_client" ? "the provider refused the broker's client credentials" : "the token endpoint failed",
    );
    return "unavailable";
  }
  if (error instanceof oauth.WWWAuthenticateChallengeError) {
    log.warn({ status: error.status }, "the token endpoint challenged the broker's client authentication");
    return "unavailable";
  }
  if (error instanceof oauth.OperationProcessingError || error instanceof oauth.UnsupportedOperationError) {
    log.warn(
      { kind: error instanceof oauth.OperationProcessingError ? (error.code ?? "invalid_response") : "unsupported" },
      "the token endpoint answered something unusable",
    );
    return "unavailable";
  }
  const name = error instanceof Error ? error.name : "Error";
  const timedOut = name === "TimeoutError" || name === "AbortError";
  log.warn({ kind: name }, timedOut ? "the token endpoint timed out" : "the token endpoint could not be reached");
  return "unavailable";
}

/** A failed refresh as the refresh route answers it: the provider refusing is 400 `refresh_failed`, anything else 502. */
export function refreshFailure(error: unknown, log: FastifyBaseLogger): BrokerError {
  return classifyTokenFailure(error, log) === "refused"
    ? new BrokerError("refresh_failed", "the provider refused the refresh token: connect again")
    : new BrokerError("provider_error", "the provider could not issue tokens: try again later");
}
