import type { RevocationDialect } from "@eleven-integrations/schema";
import type { OAuthApp } from "./oauth-app.js";
import type { OutboundFetch, OutboundInit } from "./outbound-fetch.js";

/** What the member's client hands over to revoke: the token, and what a dialect needs beside it. */
export interface RevokeInput {
  token: string;
  /** Stripe Connect: the connected account (`stripe_user_id` from the bundle). */
  stripeUserId?: string | undefined;
}

/** How a revocation at the provider ended: done, the provider refused this token, or the provider failed. */
export type RevocationOutcome =
  | { kind: "revoked" }
  | { kind: "refused"; status: number; providerCode: string }
  | { kind: "failed"; status: number | undefined; providerCode: string };

const PROVIDER_CODE = /^[A-Za-z0-9_.-]{1,64}$/;
const basic = (app: OAuthApp) => `Basic ${Buffer.from(`${encodeURIComponent(app.clientId)}:${encodeURIComponent(app.clientSecret)}`).toString("base64")}`;

/** The request a dialect makes, built from the manifest's `revocation.url`, the app and the member's input. */
export function revocationRequest(
  dialect: RevocationDialect | undefined,
  url: string,
  clientAuth: "basic" | "body",
  app: OAuthApp,
  input: RevokeInput,
): { url: string; init: OutboundInit } {
  const base = { redirect: "manual" as const };
  switch (dialect) {
    case "github":
      // https://docs.github.com/en/rest/apps/oauth-applications#delete-an-app-token
      return {
        url: url.includes("{client_id}")
          ? url.replace("{client_id}", encodeURIComponent(app.clientId))
          : `${url.replace(/\/$/, "")}/${encodeURIComponent(app.clientId)}/token`,
        init: {
          ...base,
          method: "DELETE",
          headers: {
            authorization: basic(app),
            accept: "application/vnd.github+json",
            "content-type": "application/json",
            "x-github-api-version": "2022-11-28",
          },
          body: JSON.stringify({ access_token: input.token }),
        },
      };
    case "slack":
      // https://api.slack.com/methods/auth.revoke: the token revokes itself.
      return {
        url,
        init: { ...base, method: "POST", headers: { authorization: `Bearer ${input.token}`, "content-type": "application/x-www-form-urlencoded" }, body: "" },
      };
    case "stripe":
      // https://docs.stripe.com/connect/oauth-reference#post-deauthorize: the platform's secret key, the connected account.
      return {
        url,
        init: {
          ...base,
          method: "POST",
          headers: { authorization: `Bearer ${app.clientSecret}`, "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({ client_id: app.clientId, stripe_user_id: input.stripeUserId ?? "" }).toString(),
        },
      };
    default: {
      // RFC 7009 §2.1: the token in a form body, the client authenticated as at the token endpoint.
      const form = new URLSearchParams({ token: input.token });
      const headers: Record<string, string> = { "content-type": "application/x-www-form-urlencoded", accept: "application/json" };
      if (clientAuth === "basic") headers["authorization"] = basic(app);
      else {
        form.set("client_id", app.clientId);
        form.set("client_secret", app.clientSecret);
      }
      return { url, init: { ...base, method: "POST", headers, body: form.toString() } };
    }
  }
}

/** Calls the provider and reads its answer the way its documentation says it answers. */
export async function revokeAtProvider(
  fetch: OutboundFetch,
  dialect: RevocationDialect | undefined,
  url: string,
  clientAuth: "basic" | "body",
  app: OAuthApp,
  input: RevokeInput,
): Promise<RevocationOutcome> {
  const call = revocationRequest(dialect, url, clientAuth, app, input);
  let response: Response;
  try {
    response = await fetch(call.url, call.init);
  } catch (error) {
    const name = error instanceof Error ? error.name : "Error";
    return { kind: "failed", status: undefined, providerCode: name === "TimeoutError" || name === "AbortError" ? "timeout" : "unreachable" };
  }
  const body = await response.text().catch(() => "");
  const json = parseObject(body);
  const code = (value: unknown, fallback: string) => (typeof value === "string" && PROVIDER_CODE.test(value) ? value : fallback);
  if (dialect === "slack") {
    // Slack answers 200 either way; `ok: false` with an `error` code is a refusal.
    if (response.status !== 200 || json === undefined) return { kind: "failed", status: response.status, providerCode: "invalid_response" };
    if (json["ok"] === true) return { kind: "revoked" };
    const slackCode = code(json["error"], "not_ok");
    return ["invalid_auth", "not_authed", "account_inactive", "token_revoked", "token_expired"].includes(slackCode)
      ? { kind: "refused", status: 200, providerCode: slackCode }
      : { kind: "failed", status: 200, providerCode: slackCode };
  }
  if (response.status >= 200 && response.status < 300) return { kind: "revoked" };
  const providerCode = code(json?.["error"], response.status === 422 ? "validation_failed" : `http_${response.status}`);
  // The provider refusing this token or request (not the broker's own credentials) is the member's to know.
  // Stripe answers `invalid_client` for an account not connected to the platform (its documented refusal).
  if (response.status >= 400 && response.status < 500 && response.status !== 401 && (providerCode !== "invalid_client" || dialect === "stripe")) {
    return { kind: "refused", status: response.status, providerCode };
  }
  return { kind: "failed", status: response.status, providerCode };
}

function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
