import { z } from "zod";
import { dotPathProblem } from "./dot-path.js";
import { SCOPE_TOKEN } from "./patterns.js";
import { PLACEHOLDER } from "./placeholders.js";
import { problemCheck, rulesCheck, testCheck, type IssueSink } from "./rule-checks.js";
import { TENANT_PROBE } from "./tenant-url.js";

/** Authorize parameters the broker itself sets: a manifest may not fix them. */
export const BROKER_AUTHORIZE_PARAMETERS = ["response_type", "client_id", "redirect_uri", "scope", "state", "code_challenge", "code_challenge_method"] as const;

/** Members of an RFC 6749 token answer the broker always reads: `bundle_fields` may not name them. */
const TOKEN_MEMBERS = new Set(["access_token", "token_type", "expires_in", "refresh_token", "scope", "id_token"]);

/** RFC 6749 section 5.2 error codes (plus `invalid_client`'s siblings) a provider code may be mapped to. */
export const OAUTH_ERROR_CODES = [
  "invalid_request",
  "invalid_client",
  "invalid_grant",
  "unauthorized_client",
  "unsupported_grant_type",
  "invalid_scope",
  "server_error",
  "temporarily_unavailable",
] as const;

const PARAMETER_NAME = /^[A-Za-z0-9_.-]{1,64}$/;
const PROVIDER_CODE = /^[A-Za-z0-9_.:-]{1,100}$/;
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

/** An https URL; `{tenant}` placeholders stand for a valid label while it is parsed (where they may stand is checked with `auth.tenant`). */
const httpsUrl = z
  .string()
  .max(1024)
  .regex(/^https:\/\//, "must be an https URL")
  .check(testCheck((value: string) => URL.canParse(value.replace(PLACEHOLDER, TENANT_PROBE)), "must be an absolute URL"));

/**
 * How a provider revokes a token, when it does not follow RFC 7009. Each is named after
 * the provider whose documentation it follows; the broker implements each (and grows
 * this list as it learns more):
 * - `github`: `DELETE /applications/{client_id}/token`, HTTP Basic with the client's
 *   credentials, JSON body `{ "access_token": ... }`;
 * - `slack`: `auth.revoke` called with the token itself as the bearer, `{ ok: true, revoked: true }`;
 * - `stripe`: `POST /oauth/deauthorize` with `client_id` and the connected `stripe_user_id`, the
 *   platform's secret key as the bearer.
 */
export const REVOCATION_DIALECTS = ["github", "slack", "stripe"] as const;
export type RevocationDialect = (typeof REVOCATION_DIALECTS)[number];

/** `auth.oauth.revocation`: RFC 7009 at `url` when `dialect` is absent, else the provider's own way. */
export const revocationSchema = z.strictObject({
  url: httpsUrl,
  dialect: z.enum(REVOCATION_DIALECTS).optional(),
});

const dotPath = z.string().check(problemCheck(dotPathProblem));

/**
 * `auth.oauth`: where the provider's endpoints are, which scopes to ask for,
 * and (every field after `scopes` optional, absent meaning what the first
 * release did) the provider's dialect, which the broker normalises into RFC 6749.
 */
const oauthFields = z.strictObject({
  authorize_url: httpsUrl,
  token_url: httpsUrl,
  scopes: z.array(z.string().min(1).regex(SCOPE_TOKEN, "must be a valid scope token")),
  /** How the client authenticates at `token_url`: HTTP Basic (default) or `client_id`/`client_secret` in the body. */
  client_auth: z.enum(["basic", "body"]).optional(),
  /** How the token request body is encoded: `form` (default, RFC 6749) or `json`. */
  token_encoding: z.enum(["form", "json"]).optional(),
  /** Fixed extra parameters of the authorize request (`access_type=offline`). */
  authorize_params: z
    .record(
      z.string().regex(PARAMETER_NAME, "must be a parameter name ([A-Za-z0-9_.-], at most 64 characters)"),
      z
        .string()
        .min(1, "must not be empty")
        .max(1000)
        .check(testCheck((value: string) => !CONTROL.test(value), "must not hold control characters")),
    )
    .optional(),
  /** The scope separator of the authorize request and the token answer: `" "` (default, RFC 6749) or `","`. */
  scope_separator: z.enum([" ", ","]).optional(),
  /** Dot-path of the object in the token answer that holds the token to use (Slack: `authed_user`); default the answer itself. */
  token_path: dotPath.optional(),
  /** How a refusal arrives: `status` (default: a 4xx with `error`), `error_field` (any answer with an `error` string), `ok_false` (`ok: false`, code in `error`). */
  token_errors: z.enum(["status", "error_field", "ok_false"]).optional(),
  /** The provider's own error codes mapped onto RFC 6749's (`bad_verification_code` -> `invalid_grant`). */
  error_codes: z.record(z.string().regex(PROVIDER_CODE, "must be a provider error code"), z.enum(OAUTH_ERROR_CODES)).optional(),
  /** `token_type` values (besides `bearer`) that mean a bearer token (Slack: `bot`, `user`). */
  bearer_token_types: z
    .array(z.string().regex(/^[A-Za-z0-9_.-]{1,40}$/, "must be a token type word"))
    .min(1)
    .optional(),
  /** The `Authorization` scheme for tokens from this OAuth flow when it differs from `auth.authorization` (Linear: `Bearer` for OAuth, a bare personal key). */
  authorization: z
    .string()
    .regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, 'must be an HTTP auth scheme token (such as "Bearer") or "none"')
    .optional(),
  /** Dot-paths of extra answer members the member client needs (Stripe: `stripe_user_id`), sealed with the tokens. */
  bundle_fields: z.array(dotPath).min(1).max(10).optional(),
  /** How the broker revokes a token when the member disconnects. */
  revocation: revocationSchema.optional(),
  /** An https page where the member revokes the app's access by hand (shown when there is no `revocation`). */
  revoke_help: httpsUrl.optional(),
});

export const oauthSchema = oauthFields.check(rulesCheck(oauthRules));

/** Scopes free of their separator, authorize params the broker does not own, token members left to the broker. */
function oauthRules(oauth: z.infer<typeof oauthFields>, issue: IssueSink): void {
  const separator = oauth.scope_separator ?? " ";
  oauth.scopes.forEach((scope, index) => {
    if (separator === "," && scope.includes(",")) issue(["scopes", index], 'holds ",", the declared scope_separator');
  });
  if (oauth.authorize_params !== undefined) {
    let fixedInUrl = new URLSearchParams();
    const authorizeUrl = oauth.authorize_url.replace(PLACEHOLDER, TENANT_PROBE);
    if (URL.canParse(authorizeUrl)) fixedInUrl = new URL(authorizeUrl).searchParams;
    for (const name of Object.keys(oauth.authorize_params)) {
      if ((BROKER_AUTHORIZE_PARAMETERS as readonly string[]).includes(name)) {
        issue(["authorize_params", name], `is set by the broker itself${name === "scope" ? ' (list scopes in "scopes")' : ""}`);
      } else if (fixedInUrl.has(name)) {
        issue(["authorize_params", name], "is already fixed in authorize_url's query");
      }
    }
  }
  oauth.bearer_token_types?.forEach((type, index) => {
    if (type.toLowerCase() === "bearer") issue(["bearer_token_types", index], "bearer is always accepted; list only the provider's other words");
  });
  oauth.bundle_fields?.forEach((path, index) => {
    if (TOKEN_MEMBERS.has(path)) issue(["bundle_fields", index], `"${path}" is already part of every token bundle`);
  });
  if (oauth.token_path !== undefined && TOKEN_MEMBERS.has(oauth.token_path.split(".")[0] ?? "")) {
    issue(["token_path"], "must name an object of the answer, not a token member");
  }
}

export type OAuthSettings = z.infer<typeof oauthSchema>;
