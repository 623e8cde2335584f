import type { OAuthSettings } from "@eleven-integrations/schema";
import * as oauth from "oauth4webapi";
import type { OutboundFetch, OutboundInit } from "./outbound-fetch.js";
import { valueAtDotPath } from "@eleven-integrations/schema";

/**
 * What a provider needs beyond RFC 6749, read once from the manifest's `oauth`
 * block. Every field has the first release's meaning when the manifest is silent.
 */
export interface OAuthDialect {
  clientAuth: "basic" | "body";
  tokenEncoding: "form" | "json";
  authorizeParams: Readonly<Record<string, string>>;
  scopeSeparator: " " | ",";
  tokenPath: readonly string[] | undefined;
  tokenErrors: "status" | "error_field" | "ok_false";
  errorCodes: Readonly<Record<string, string>>;
  bearerTokenTypes: ReadonlySet<string>;
  bundleFields: readonly string[];
}

export function dialectOf(settings: OAuthSettings): OAuthDialect {
  return {
    clientAuth: settings.client_auth ?? "basic",
    tokenEncoding: settings.token_encoding ?? "form",
    authorizeParams: settings.authorize_params ?? {},
    scopeSeparator: settings.scope_separator ?? " ",
    tokenPath: settings.token_path?.split("."),
    tokenErrors: settings.token_errors ?? "status",
    errorCodes: settings.error_codes ?? {},
    bearerTokenTypes: new Set((settings.bearer_token_types ?? []).map((type) => type.toLowerCase())),
    bundleFields: settings.bundle_fields ?? [],
  };
}

/** oauth4webapi's client authentication for the dialect: HTTP Basic (RFC 6749 2.3.1) or the secret in the body. */
export function clientAuthentication(dialect: OAuthDialect, clientSecret: string): oauth.ClientAuth {
  return dialect.clientAuth === "body" ? oauth.ClientSecretPost(clientSecret) : oauth.ClientSecretBasic(clientSecret);
}

/** RFC 6749 members of a token answer; the others are passed through untouched. */
const TOKEN_MEMBERS = ["access_token", "token_type", "expires_in", "refresh_token", "scope", "id_token"] as const;

/**
 * Wraps the outbound fetch for one provider: the token request is re-encoded
 * when the provider wants JSON, and every answer is rewritten into RFC 6749
 * shape (refusals as a 4xx `{ error }`, the token members at the top, a
 * bearer `token_type`, space-separated `scope`) before oauth4webapi checks it,
 * so the library still runs every protocol check on what it reads.
 */
export function dialectFetch(fetch: OutboundFetch, dialect: OAuthDialect): OutboundFetch {
  return async (url, init) => {
    const response = await fetch(url, dialect.tokenEncoding === "json" ? asJsonRequest(init) : init);
    return normaliseTokenResponse(response, dialect);
  };
}

function asJsonRequest(init: OutboundInit): OutboundInit {
  const form = init.body instanceof URLSearchParams ? init.body : typeof init.body === "string" ? new URLSearchParams(init.body) : undefined;
  if (form === undefined) return init;
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(init.headers)) if (name.toLowerCase() !== "content-type") headers[name] = value;
  headers["content-type"] = "application/json";
  return { ...init, headers, body: JSON.stringify(Object.fromEntries(form)) };
}

/** The provider's answer as RFC 6749 would have it; an answer that is not a JSON object is left for oauth4webapi to refuse. */
export async function normaliseTokenResponse(response: Response, dialect: OAuthDialect): Promise<Response> {
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return rebuild(response, response.status, text, false);
  }
  if (json === null || typeof json !== "object" || Array.isArray(json)) return rebuild(response, response.status, text, false);
  const body = json as Record<string, unknown>;

  const refusal = refusalOf(response.status, body, dialect);
  if (refusal !== undefined) return rebuild(response, refusal.status, JSON.stringify(refusal.body), true);
  if (response.status !== 200) return rebuild(response, response.status, text, false);
  return rebuild(response, 200, JSON.stringify(tokenAnswer(body, dialect)), true);
}

function refusalOf(status: number, body: Record<string, unknown>, dialect: OAuthDialect): { status: number; body: Record<string, string> } | undefined {
  let refused = status >= 400;
  if (dialect.tokenErrors === "ok_false" && body.ok === false) refused = true;
  if (dialect.tokenErrors === "error_field" && typeof body.error === "string") refused = true;
  if (!refused) return undefined;
  const providerCode = typeof body.error === "string" ? body.error : undefined;
  if (providerCode === undefined) return status >= 400 ? undefined : { status: 400, body: { error: "invalid_request" } };
  const mapped: Record<string, string> = {
    error: Object.hasOwn(dialect.errorCodes, providerCode) ? (dialect.errorCodes[providerCode] as string) : providerCode,
  };
  if (typeof body.error_description === "string") mapped.error_description = body.error_description;
  return { status: Math.max(status, 400), body: mapped };
}

function tokenAnswer(body: Record<string, unknown>, dialect: OAuthDialect): Record<string, unknown> {
  const answer: Record<string, unknown> = { ...body };
  const nested = dialect.tokenPath === undefined ? undefined : valueAt(body, dialect.tokenPath);
  // The declared place holds the token when it is there; an answer without it (Slack's refresh answers at the top) is read as is.
  if (nested !== null && typeof nested === "object" && !Array.isArray(nested) && typeof (nested as Record<string, unknown>).access_token === "string") {
    for (const member of TOKEN_MEMBERS) delete answer[member];
    for (const member of TOKEN_MEMBERS) {
      const value = (nested as Record<string, unknown>)[member];
      if (value !== undefined) answer[member] = value;
    }
  }
  // A null member is an absent one (Notion answers "refresh_token": null).
  for (const member of TOKEN_MEMBERS) if (answer[member] === null) delete answer[member];
  if (typeof answer.token_type === "string" && dialect.bearerTokenTypes.has(answer.token_type.toLowerCase())) answer.token_type = "bearer";
  answer.scope = normaliseScope(answer.scope, dialect.scopeSeparator);
  if (answer.scope === undefined) delete answer.scope;
  return answer;
}

function normaliseScope(scope: unknown, separator: " " | ","): unknown {
  if (Array.isArray(scope) && scope.every((item) => typeof item === "string")) return scope.join(" ");
  if (typeof scope !== "string") return scope;
  return scope
    .split(separator === "," ? /[,\s]+/ : /\s+/)
    .filter((item) => item !== "")
    .join(" ");
}

/** The value at a dot-path of plain objects, never through the prototype chain (nor into an array). */
export function valueAt(value: unknown, path: readonly string[]): unknown {
  return valueAtDotPath(value, path);
}

function rebuild(response: Response, status: number, body: string, json: boolean): Response {
  const headers = new Headers(response.headers);
  headers.delete("content-length");
  headers.delete("content-encoding");
  if (json) headers.set("content-type", "application/json");
  return new Response(status === 204 || status === 304 ? null : body, { status, headers });
}

/** The authorize request's `scope` value in the provider's spelling. */
export function scopeParameter(scopes: readonly string[], dialect: OAuthDialect): string {
  return scopes.join(dialect.scopeSeparator);
}

/** The `bundle_fields` values of a token answer: strings, numbers and booleans only, keyed by their path. */
export function bundleFieldsOf(answer: Record<string, unknown>, dialect: OAuthDialect): Record<string, string | number | boolean> | undefined {
  const fields: Record<string, string | number | boolean> = {};
  for (const path of dialect.bundleFields) {
    const value = valueAt(answer, path.split("."));
    if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") fields[path] = value;
  }
  return Object.keys(fields).length > 0 ? fields : undefined;
}
