/**
 * How each shipped OAuth provider's token endpoint behaves, copied from its
 * documentation (documented examples, not recordings): the URL each behaviour
 * comes from is named beside it. The stand-in (`provider-stand-in.ts`) serves
 * these answers over loopback TLS; `providers.integration.test.ts` runs the
 * broker against each one with the shipped manifest.
 */

export interface TokenAnswer {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

/** A refusal the documentation shows: a bad or used code, an unknown refresh token, wrong client credentials, a malformed request. */
export type Refusal = "bad_code" | "bad_refresh" | "bad_client" | "bad_request";

export interface IssuedTokens {
  grant: "code" | "refresh";
  access: string;
  refresh: string | undefined;
}

export interface ProviderDoc {
  /** The shipped manifest's id. */
  id: string;
  /** Where the behaviour below is documented. */
  docs: string[];
  tokenUrl: string;
  /** How the documentation has the client authenticate: HTTP Basic, or `client_id`/`client_secret` in the body. */
  clientAuth: "basic" | "body";
  /** The token request body the documentation shows. */
  encoding: "form" | "json";
  /** The provider checks the PKCE verifier (documented PKCE support). */
  pkce: boolean;
  /** Refresh tokens: rotated on use, the same one answered again, or not answered again (the old one stays valid); absent: none issued. */
  refresh?: "rotate" | "same" | "kept";
  /** GitHub: form-encoded answers unless the request accepts JSON. */
  formUnlessJsonAccepted?: boolean;
  /** Authorize parameters the provider needs: the value each must have, or null when it must be absent. */
  authorize: Record<string, string | null>;
  /** Extra parameters of the provider's redirect back with a code. */
  callbackExtras?: Record<string, string>;
  /** The provider's redirect back when the member refuses. */
  denied: Record<string, string>;
  success(tokens: IssuedTokens): TokenAnswer;
  refusal(kind: Refusal): TokenAnswer;
  /** What the sealed bundle must then hold besides the tokens. */
  expect: { scope?: string; expiresIn?: number; fields?: Record<string, string | number | boolean> };
}

const GITHUB_ERRORS = "https://docs.github.com/en/apps/oauth-apps/maintaining-oauth-apps/troubleshooting-oauth-app-access-token-request-errors";

export const github: ProviderDoc = {
  id: "github",
  docs: [
    // "POST https://github.com/login/oauth/access_token ... client_id, client_secret, code, redirect_uri, code_verifier"
    // "By default, the response takes the following form: access_token=gho_16C7e42F292c6912E7710c838347Ae178B4a&scope=repo%2Cgist&token_type=bearer"
    // "Accept: application/json {"access_token":"gho_16C7e42F292c6912E7710c838347Ae178B4a", "scope":"repo,gist", "token_type":"bearer"}"
    "https://docs.github.com/en/apps/oauth-apps/building-oauth-apps/authorizing-oauth-apps",
    // Errors are answered with HTTP 200: {"error":"bad_verification_code","error_description":"The code passed is incorrect or expired.","error_uri":...}
    GITHUB_ERRORS,
    "https://docs.github.com/en/apps/oauth-apps/maintaining-oauth-apps/troubleshooting-authorization-request-errors",
  ],
  tokenUrl: "https://github.com/login/oauth/access_token",
  clientAuth: "body",
  encoding: "form",
  pkce: true,
  formUnlessJsonAccepted: true,
  authorize: { scope: "repo" },
  // "http://your-application.com/callback?error=access_denied&error_description=The+user+has+denied+your+application+access.&error_uri=..."
  denied: {
    error: "access_denied",
    error_description: "The user has denied your application access.",
    error_uri: "https://docs.github.com/apps/managing-oauth-apps/troubleshooting-authorization-request-errors/#access-denied",
  },
  success: ({ access }) => ({ status: 200, body: { access_token: access, scope: "repo,gist", token_type: "bearer" } }),
  refusal: (kind) =>
    kind === "bad_client"
      ? {
          status: 200,
          body: {
            error: "incorrect_client_credentials",
            error_description: "The client_id and/or client_secret passed are incorrect.",
            error_uri: `${GITHUB_ERRORS}#incorrect-client-credentials`,
          },
        }
      : {
          status: 200,
          body: {
            error: "bad_verification_code",
            error_description: "The code passed is incorrect or expired.",
            error_uri: `${GITHUB_ERRORS}#bad-verification-code`,
          },
        },
  expect: { scope: "repo gist" },
};

export const gitlab: ProviderDoc = {
  id: "gitlab",
  docs: [
    // "parameters = 'client_id=APP_ID&client_secret=APP_SECRET&code=RETURNED_CODE&grant_type=authorization_code&redirect_uri=REDIRECT_URI&code_verifier=CODE_VERIFIER'
    //  RestClient.post 'https://gitlab.example.com/oauth/token', parameters"
    // "{ "access_token": "de6780bc...", "token_type": "bearer", "expires_in": 7200, "refresh_token": "8257e65c...", "created_at": 1607635748 }"
    // Refresh: "grant_type=refresh_token ... returns a new access_token and a new refresh_token" (the old refresh token is revoked).
    "https://docs.gitlab.com/api/oauth2/",
  ],
  tokenUrl: "https://gitlab.com/oauth/token",
  clientAuth: "body",
  encoding: "form",
  pkce: true,
  refresh: "rotate",
  authorize: { scope: "api" },
  denied: { error: "access_denied", error_description: "The resource owner or authorization server denied the request." },
  success: ({ access, refresh }) => ({
    status: 200,
    body: { access_token: access, token_type: "bearer", expires_in: 7200, refresh_token: refresh, created_at: 1607635748 },
  }),
  refusal: (kind) =>
    kind === "bad_client"
      ? {
          status: 401,
          body: {
            error: "invalid_client",
            error_description: "Client authentication failed due to unknown client, no client authentication included, or unsupported authentication method.",
          },
        }
      : {
          status: 400,
          body: {
            error: "invalid_grant",
            error_description:
              "The provided authorization grant is invalid, expired, revoked, does not match the redirection URI used in the authorization request, or was issued to another client.",
          },
        },
  expect: { expiresIn: 7200 },
};

const CALENDAR_SCOPES = "https://www.googleapis.com/auth/calendar.calendarlist.readonly https://www.googleapis.com/auth/calendar.events";

export const googleCalendar: ProviderDoc = {
  id: "google-calendar",
  docs: [
    // "access_type: Recommended ... Set the value to offline if your application needs to refresh access tokens"
    // "prompt ... consent: Prompt the user for consent." (a refresh token comes only with the first consent otherwise)
    // Token exchange: "code, client_id, client_secret, redirect_uri, grant_type=authorization_code"; answer:
    // "{ "access_token": "1/fFAGRNJru1FTz70BzhT3Zg", "expires_in": 3920, "token_type": "Bearer", "scope": "...", "refresh_token": "1//xEoDL4iW3cxlI7yDbSRFYNG01kVKM2C-259HOF2aQbI" }"
    // Refresh answer: "{ "access_token": "1/fFAGRNJru1FTz70BzhT3Zg", "expires_in": 3920, "scope": "...", "token_type": "Bearer" }" (no refresh_token)
    // Denied: "https://oauth2.example.com/auth?error=access_denied"
    "https://developers.google.com/identity/protocols/oauth2/web-server",
    // "invalid_grant ... Token has been expired or revoked."; "invalid_client" 401 "Unauthorized"
    "https://developers.google.com/identity/protocols/oauth2/web-server#exchange-authorization-code",
  ],
  tokenUrl: "https://oauth2.googleapis.com/token",
  clientAuth: "body",
  encoding: "form",
  pkce: true,
  refresh: "kept",
  authorize: { access_type: "offline", prompt: "consent", scope: CALENDAR_SCOPES },
  callbackExtras: { scope: CALENDAR_SCOPES },
  denied: { error: "access_denied" },
  success: ({ grant, access, refresh }) => ({
    status: 200,
    body:
      grant === "code"
        ? { access_token: access, expires_in: 3920, token_type: "Bearer", scope: CALENDAR_SCOPES, refresh_token: refresh }
        : { access_token: access, expires_in: 3920, scope: CALENDAR_SCOPES, token_type: "Bearer" },
  }),
  refusal: (kind) =>
    kind === "bad_client"
      ? { status: 401, body: { error: "invalid_client", error_description: "Unauthorized" } }
      : kind === "bad_refresh"
        ? { status: 400, body: { error: "invalid_grant", error_description: "Token has been expired or revoked." } }
        : { status: 400, body: { error: "invalid_grant", error_description: "Bad Request" } },
  expect: { scope: CALENDAR_SCOPES, expiresIn: 3920 },
};

export const linear: ProviderDoc = {
  id: "linear",
  docs: [
    // "scope (required) Comma separated list of scopes"; "Linear supports the PKCE flow"
    // "POST https://api.linear.app/oauth/token  Content-Type header should be application/x-www-form-urlencoded
    //  code, redirect_uri, client_id, client_secret, grant_type=authorization_code"
    // "{ "access_token": "00a21d8b...", "token_type": "Bearer", "expires_in": 315705599, "scope": "read write" }" (space-separated, though asked comma-separated)
    // "OAuth2 applications created from October 1, 2025 onwards will have refresh tokens enabled by default";
    // refresh: "grant_type=refresh_token ... the response includes a new refresh token" (the old one stops working).
    "https://linear.app/developers/oauth-2-0-authentication",
  ],
  tokenUrl: "https://api.linear.app/oauth/token",
  clientAuth: "body",
  encoding: "form",
  pkce: true,
  refresh: "rotate",
  authorize: { scope: "read,write" },
  denied: { error: "access_denied" },
  success: ({ access, refresh }) => ({
    status: 200,
    body: { access_token: access, token_type: "Bearer", expires_in: 86399, scope: "read write", refresh_token: refresh },
  }),
  // Linear's page shows no error body; its token endpoint answers RFC 6749 section 5.2 errors.
  refusal: (kind) => (kind === "bad_client" ? { status: 401, body: { error: "invalid_client" } } : { status: 400, body: { error: "invalid_grant" } }),
  expect: { scope: "read write", expiresIn: 86399 },
};

export const notion: ProviderDoc = {
  id: "notion",
  docs: [
    // "Authorization: Basic <encoded-value>, where <encoded-value> is the base64-encoded string username:password" (client id : client secret)
    // "Body application/json: grant_type (required), code (required), redirect_uri"
    // "{ "access_token": "<string>", "token_type": "bearer", "refresh_token": "<string>", "bot_id": "3c90c3cc-...", "workspace_icon": "<string>",
    //   "workspace_name": "<string>", "workspace_id": "3c90c3cc-...", "owner": {...}, "duplicated_template_id": "...", "request_id": "..." }"
    "https://developers.notion.com/reference/create-a-token",
    // "Refreshes an access token, generating a new access token and new refresh token"; "refresh_token: string | null"
    "https://developers.notion.com/reference/refresh-a-token",
    // "owner=user" in the authorization URL; a member who cancels comes back with error=access_denied; invalid_grant is a 400
    "https://developers.notion.com/docs/authorization",
    "https://developers.notion.com/reference/status-codes",
  ],
  tokenUrl: "https://api.notion.com/v1/oauth/token",
  clientAuth: "basic",
  encoding: "json",
  pkce: false,
  refresh: "rotate",
  authorize: { owner: "user", scope: null },
  denied: { error: "access_denied" },
  success: ({ access, refresh }) => ({
    status: 200,
    body: {
      access_token: access,
      token_type: "bearer",
      refresh_token: refresh ?? null,
      bot_id: "3c90c3cc-0d44-4b50-8888-8dd25736052a",
      workspace_icon: null,
      workspace_name: "Ada's Notion Workspace",
      workspace_id: "3c90c3cc-0d44-4b50-8888-8dd25736052b",
      owner: { type: "user", user: { object: "user", id: "3c90c3cc-0d44-4b50-8888-8dd25736052c" } },
      duplicated_template_id: null,
      request_id: "3c90c3cc-0d44-4b50-8888-8dd25736052d",
    },
  }),
  refusal: (kind) =>
    kind === "bad_client"
      ? { status: 401, body: { error: "invalid_client", error_description: "Invalid client credentials." } }
      : kind === "bad_request"
        ? { status: 400, body: { error: "invalid_request", error_description: "Body failed validation." } }
        : { status: 400, body: { error: "invalid_grant", error_description: "Invalid code." } },
  expect: {},
};

const SLACK_USER_SCOPES = "channels:read,channels:history,chat:write,users:read,reactions:write,im:write";

export const slack: ProviderDoc = {
  id: "slack",
  docs: [
    // "user_scope: A comma-separated list of user scopes"; with user scopes only, oauth.v2.access answers
    // "{ "ok": true, "app_id": "A0KRD7HC3", "authed_user": { "id": "U1234", "scope": "chat:write", "access_token": "xoxp-1234", "token_type": "user" },
    //    "team": { "id": "T9TK3CUKW", "name": "Slack Softball Team" }, "enterprise": null, "is_enterprise_install": false }"
    "https://docs.slack.dev/authentication/installing-with-oauth",
    // "client_id/client_secret ... use the HTTP Basic authentication scheme" (preferred); errors come with HTTP 200:
    // "{ "ok": false, "error": "invalid_code" }" — invalid_code, code_already_used, bad_client_secret, invalid_client_id, invalid_refresh_token ...
    "https://docs.slack.dev/reference/methods/oauth.v2.access",
    // Token rotation: "expires_in": 43200 and a "refresh_token" (xoxe-1-...); refreshing with grant_type=refresh_token answers the
    // new token at the top level ("token_type": "user" for a user token) and revokes the old refresh token.
    "https://docs.slack.dev/authentication/using-token-rotation",
  ],
  tokenUrl: "https://slack.com/api/oauth.v2.access",
  clientAuth: "basic",
  encoding: "form",
  pkce: false,
  refresh: "rotate",
  authorize: { user_scope: SLACK_USER_SCOPES, scope: null },
  denied: { error: "access_denied" },
  success: ({ grant, access, refresh }) => ({
    status: 200,
    body:
      grant === "code"
        ? {
            ok: true,
            app_id: "A0KRD7HC3",
            authed_user: { id: "U1234", scope: SLACK_USER_SCOPES, access_token: access, token_type: "user", refresh_token: refresh, expires_in: 43200 },
            team: { id: "T9TK3CUKW", name: "Slack Softball Team" },
            enterprise: null,
            is_enterprise_install: false,
          }
        : {
            ok: true,
            app_id: "A0KRD7HC3",
            access_token: access,
            token_type: "user",
            scope: SLACK_USER_SCOPES,
            refresh_token: refresh,
            expires_in: 43200,
            team: { id: "T9TK3CUKW", name: "Slack Softball Team" },
          },
  }),
  refusal: (kind) => ({
    status: 200,
    body: {
      ok: false,
      error:
        kind === "bad_client"
          ? "bad_client_secret"
          : kind === "bad_refresh"
            ? "invalid_refresh_token"
            : kind === "bad_request"
              ? "invalid_arguments"
              : "invalid_code",
    },
  }),
  expect: {
    scope: "channels:read channels:history chat:write users:read reactions:write im:write",
    expiresIn: 43200,
    fields: { "team.id": "T9TK3CUKW", "authed_user.id": "U1234" },
  },
};

export const stripe: ProviderDoc = {
  id: "stripe",
  docs: [
    // "https://connect.stripe.com/oauth/authorize?response_type=code&client_id={CLIENT_ID}&scope=read_write"
    // "curl https://connect.stripe.com/oauth/token -d client_secret={SECRET_KEY} -d code="{AUTHORIZATION_CODE}" -d grant_type=authorization_code"
    // "{ "access_token": "{ACCESS_TOKEN}", "livemode": false, "refresh_token": "{REFRESH_TOKEN}", "token_type": "bearer",
    //    "stripe_publishable_key": "{PUBLISHABLE_KEY}", "stripe_user_id": "{ACCOUNT_ID}", "scope": "read_write" }"
    // Refresh: "grant_type=refresh_token ... refresh_token" answers the same shape.
    // Errors: "{ "error": "invalid_grant", "error_description": "Authorization code does not exist: {AUTHORIZATION_CODE}" }";
    // denied: "{REDIRECT_URI}?error=access_denied&error_description=The%20user%20denied%20your%20request"
    "https://docs.stripe.com/connect/oauth-reference",
  ],
  tokenUrl: "https://connect.stripe.com/oauth/token",
  clientAuth: "body",
  encoding: "form",
  pkce: false,
  refresh: "same",
  authorize: { scope: "read_write", response_type: "code" },
  callbackExtras: { scope: "read_write" },
  denied: { error: "access_denied", error_description: "The user denied your request" },
  success: ({ access, refresh }) => ({
    status: 200,
    body: {
      access_token: access,
      livemode: false,
      refresh_token: refresh,
      token_type: "bearer",
      stripe_publishable_key: "pk_test_51Hdocumented",
      stripe_user_id: "acct_1032D82eZvKYlo2C",
      scope: "read_write",
    },
  }),
  refusal: (kind) =>
    kind === "bad_client"
      ? {
          status: 401,
          body: {
            error: "invalid_client",
            error_description: "No authentication was provided. Send your secret API key using the Authorization header, or as a client_secret POST parameter.",
          },
        }
      : kind === "bad_refresh"
        ? { status: 400, body: { error: "invalid_grant", error_description: "Refresh token does not exist: rt_unknown" } }
        : { status: 400, body: { error: "invalid_grant", error_description: "Authorization code does not exist: ac_unknown" } },
  expect: { scope: "read_write", fields: { stripe_user_id: "acct_1032D82eZvKYlo2C" } },
};

export const todoist: ProviderDoc = {
  id: "todoist",
  docs: [
    // "https://app.todoist.com/oauth/authorize?client_id=0123456789abcdef&scope=data:read,data:delete&state=secretstring" (scopes comma-separated)
    // "POST https://api.todoist.com/oauth/access_token  client_id, client_secret, code" (the secret in the form body)
    // "{ "access_token": "0123456789abcdef0123456789abcdef01234567", "token_type": "Bearer" }" (no expiry, no refresh token)
    // Errors: "bad_authorization_code", "incorrect_application_credentials" ({"error": "..."}, HTTP 400); denied: "error=access_denied"
    "https://developer.todoist.com/api/v1/#tag/Authorization/OAuth",
  ],
  tokenUrl: "https://api.todoist.com/oauth/access_token",
  clientAuth: "body",
  encoding: "form",
  pkce: false,
  authorize: { scope: "data:read_write" },
  denied: { error: "access_denied" },
  success: ({ access }) => ({ status: 200, body: { access_token: access, token_type: "Bearer" } }),
  refusal: (kind) => ({ status: 400, body: { error: kind === "bad_client" ? "incorrect_application_credentials" : "bad_authorization_code" } }),
  expect: {},
};

const GRAPH_MAIL_SCOPES = "Mail.ReadWrite Mail.Send User.Read";

/** Microsoft identity platform v2, as `microsoft-outlook-mail` uses it (the other three Microsoft 365 manifests differ only in scopes). */
export const microsoftOutlookMail: ProviderDoc = {
  id: "microsoft-outlook-mail",
  docs: [
    // Authorize: "https://login.microsoftonline.com/{tenant}/oauth2/v2.0/authorize?client_id=...&response_type=code&redirect_uri=...&scope=offline_access%20...&state=12345&code_challenge=...&code_challenge_method=S256"
    // Token request: "client_id, scope, code, redirect_uri, grant_type=authorization_code, code_verifier, client_secret" (form body)
    // Success: "{ "access_token": "eyJ0eXAi...", "token_type": "Bearer", "expires_in": 3599, "scope": "https%3A%2F%2Fgraph.microsoft.com%2Fmail.read", "refresh_token": "AwABAAAAvPM1KaPlrEqdFSBzjqfTGAMxZGUTdM0t4B4...", "id_token": "..." }"
    // ("id_token: Only provided if openid scope was requested": the manifest asks for no openid, so the answer has none)
    // Refresh: "Refresh tokens ... you should use the new refresh token returned in the response" (a new one each time)
    // Error: "{ "error": "invalid_scope", "error_description": "AADSTS70011: The provided value for the input parameter 'scope' isn't valid...", "error_codes": [70011], ... }"
    // Denied: "GET https://login.microsoftonline.com/common/oauth2/nativeclient?error=access_denied&error_description=the+user+canceled+the+authentication"
    "https://learn.microsoft.com/en-us/entra/identity-platform/v2-oauth2-auth-code-flow",
  ],
  tokenUrl: "https://login.microsoftonline.com/common/oauth2/v2.0/token",
  clientAuth: "body",
  encoding: "form",
  pkce: true,
  refresh: "rotate",
  authorize: { scope: "offline_access User.Read Mail.ReadWrite Mail.Send" },
  denied: { error: "access_denied", error_description: "the user canceled the authentication" },
  success: ({ access, refresh }) => ({
    status: 200,
    body: { access_token: access, token_type: "Bearer", expires_in: 3599, scope: GRAPH_MAIL_SCOPES, refresh_token: refresh },
  }),
  refusal: (kind) =>
    kind === "bad_client"
      ? { status: 401, body: { error: "invalid_client", error_description: "AADSTS7000215: Invalid client secret provided.", error_codes: [7000215] } }
      : kind === "bad_refresh"
        ? {
            status: 400,
            body: {
              error: "invalid_grant",
              error_description: "AADSTS70008: The provided authorization code or refresh token has expired due to inactivity.",
              error_codes: [70008],
            },
          }
        : {
            status: 400,
            body: { error: "invalid_grant", error_description: "AADSTS70000: The provided value for the 'code' parameter is not valid.", error_codes: [70000] },
          },
  expect: { scope: GRAPH_MAIL_SCOPES, expiresIn: 3599 },
};

const DROPBOX_SCOPES = "account_info.read files.content.write files.metadata.read sharing.read sharing.write";

export const dropbox: ProviderDoc = {
  id: "dropbox",
  docs: [
    // "/oauth2/authorize ... token_access_type: offline ... a long-lived refresh_token will be returned"
    // "/oauth2/token ... code, grant_type, client_id, client_secret (or HTTP basic authentication), redirect_uri, code_verifier"
    // Sample response: "{ "access_token": "sl.AbX9y6Fe3AuH5o66-gmJpR032jwAwQPIVVzWXZNkdzcYT02akC2de219dZi6gxYPVnYPrpvISRSf9lxKWJzYLjtMPH-d9fo_0gXex7X37VIvpty4-G8f4-WX45AcEPfRnJJDwzv-", "expires_in": 14400, "token_type": "bearer", "scope": "account_info.read files.content.read files.content.write files.metadata.read", "refresh_token": "nBiM85CZALsAAAAAAAAAAQXHBoNpNutK4ngsXHsqW4iGz9tisb3JyjGqikMJIYbd", "account_id": "dbid:AAH4f99T0taONIb-OurWxbNQ6ywGRopQngc", "uid": "12345" }"
    // Refresh sample: "{ "access_token": "sl.u.AbX9y6Fe3AuH5o66-gmJpR032jwAwQPIVVzWXZNkdzcYT02akC2de219dZi6gxYPVnYPrpvISRSf9lxKWJzYLjtMPH-d9fo_0gXex7X37VIvpty4-G8f4-WX45AcEPfRnJJDwzv-", "expires_in": 14400, "token_type": "bearer" }" (the refresh token is kept)
    // Errors: "{ "error": "invalid_grant", "error_description": "code doesn't exist or has expired" }"
    "https://www.dropbox.com/developers/documentation/http/documentation#oauth2-authorize",
    "https://www.dropbox.com/developers/documentation/http/documentation#oauth2-token",
  ],
  tokenUrl: "https://api.dropboxapi.com/oauth2/token",
  clientAuth: "basic",
  encoding: "form",
  pkce: true,
  refresh: "kept",
  authorize: { token_access_type: "offline", scope: "account_info.read files.metadata.read files.content.read files.content.write sharing.read sharing.write" },
  denied: { error: "access_denied", error_description: "The user chose not to give your app access to their Dropbox account." },
  success: ({ grant, access, refresh }) => ({
    status: 200,
    body:
      grant === "code"
        ? {
            access_token: access,
            expires_in: 14400,
            token_type: "bearer",
            scope: DROPBOX_SCOPES,
            refresh_token: refresh,
            account_id: "dbid:AAH4f99T0taONIb-OurWxbNQ6ywGRopQngc",
            uid: "12345",
          }
        : { access_token: access, expires_in: 14400, token_type: "bearer" },
  }),
  refusal: (kind) =>
    kind === "bad_client"
      ? { status: 400, body: { error: "invalid_client", error_description: "Invalid client_id or client_secret" } }
      : kind === "bad_refresh"
        ? { status: 400, body: { error: "invalid_grant", error_description: "refresh token is invalid or revoked" } }
        : { status: 400, body: { error: "invalid_grant", error_description: "code doesn't exist or has expired" } },
  expect: { scope: DROPBOX_SCOPES, expiresIn: 14400 },
};

export const box: ProviderDoc = {
  id: "box",
  docs: [
    // Authorize: "https://account.box.com/api/oauth2/authorize?client_id=...&redirect_uri=...&response_type=code" (scope optional)
    // Token: "POST https://api.box.com/oauth2/token ... client_id, client_secret, code, grant_type=authorization_code" (form body)
    // Answer: "{ "access_token": "c3FIOG9vSGV4VHz8QzRDZTA2MzR", "expires_in": 3600, "issued_token_type": "urn:ietf:params:oauth:token-type:access_token", "refresh_token": "c3FIOG9vSGV4VHz8QzRDZTA2MzR", "restricted_to": [...], "token_type": "bearer" }"
    // "Each refresh token is valid for one use ... a new refresh token is returned"
    // Errors: "{ "error": "invalid_grant", "error_description": "The authorization code has expired" }", "invalid_client"
    "https://developer.box.com/reference/post-oauth2-token/",
    "https://developer.box.com/guides/authentication/oauth2/without-sdk/",
  ],
  tokenUrl: "https://api.box.com/oauth2/token",
  clientAuth: "body",
  encoding: "form",
  pkce: false,
  refresh: "rotate",
  authorize: { scope: "root_readwrite" },
  denied: { error: "access_denied", error_description: "The user denied access to your application" },
  success: ({ access, refresh }) => ({
    status: 200,
    body: {
      access_token: access,
      expires_in: 3600,
      issued_token_type: "urn:ietf:params:oauth:token-type:access_token",
      refresh_token: refresh,
      restricted_to: [],
      token_type: "bearer",
    },
  }),
  refusal: (kind) =>
    kind === "bad_client"
      ? { status: 400, body: { error: "invalid_client", error_description: "The client credentials are invalid" } }
      : kind === "bad_refresh"
        ? { status: 400, body: { error: "invalid_grant", error_description: "Invalid refresh token" } }
        : { status: 400, body: { error: "invalid_grant", error_description: "The authorization code has expired" } },
  expect: { expiresIn: 3600 },
};

const JIRA_SCOPES = "read:jira-work write:jira-work read:jira-user offline_access";

export const jira: ProviderDoc = {
  id: "jira",
  docs: [
    // Authorize: "https://auth.atlassian.com/authorize?audience=api.atlassian.com&client_id=...&scope=...&redirect_uri=...&state=...&response_type=code&prompt=consent"
    // Token: "curl --request POST --url 'https://auth.atlassian.com/oauth/token' --header 'Content-Type: application/json'
    //   --data '{"grant_type": "authorization_code","client_id": ...,"client_secret": ...,"code": ...,"redirect_uri": ...}'"
    // Answer: "{"access_token": <string>, "expires_in": <expiry time of access_token in second>, "scope": <string>}", a refresh_token with offline_access
    // "Rotating refresh tokens ... a new refresh token is issued with each refresh"; an unknown one: "403 Forbidden ... invalid_grant"
    "https://developer.atlassian.com/cloud/jira/platform/oauth-2-3lo-apps/",
  ],
  tokenUrl: "https://auth.atlassian.com/oauth/token",
  clientAuth: "body",
  encoding: "json",
  pkce: false,
  refresh: "rotate",
  authorize: { audience: "api.atlassian.com", prompt: "consent", scope: JIRA_SCOPES },
  denied: { error: "access_denied", error_description: "User did not authorize the request" },
  success: ({ access, refresh }) => ({
    status: 200,
    body: { access_token: access, expires_in: 3600, token_type: "Bearer", refresh_token: refresh, scope: JIRA_SCOPES },
  }),
  // Atlassian's page shows invalid_grant for a bad or used code and an unknown refresh token; a wrong client secret is answered in RFC 6749's words.
  refusal: (kind) =>
    kind === "bad_client"
      ? { status: 401, body: { error: "invalid_client", error_description: "Unauthorized" } }
      : kind === "bad_refresh"
        ? { status: 403, body: { error: "invalid_grant", error_description: "Unknown or invalid refresh token." } }
        : { status: 403, body: { error: "invalid_grant", error_description: "Invalid authorization code" } },
  expect: { scope: JIRA_SCOPES, expiresIn: 3600 },
};

const ASANA_SCOPES = "users:read workspaces:read projects:read tasks:read tasks:write stories:write";

export const asana: ProviderDoc = {
  id: "asana",
  docs: [
    // Authorize: "https://app.asana.com/-/oauth_authorize?client_id=...&redirect_uri=...&response_type=code&state=...&scope=..."
    // Token: "POST https://app.asana.com/-/oauth_token ... grant_type, client_id, client_secret, redirect_uri, code" (form body)
    // Answer: "{ "access_token": "f6ds7fdsa69ags7ag9sd5a", "expires_in": 3600, "token_type": "bearer", "data": { "id": 4673218951, "gid": "4673218951", "name": "Greg Sanchez", "email": "gsanchez@example.com" }, "refresh_token": "hjkl325hjkl4325hj4kl32fjds" }"
    // Refresh: the answer carries a new access_token and no refresh_token (the refresh token does not expire)
    "https://developers.asana.com/docs/oauth",
  ],
  tokenUrl: "https://app.asana.com/-/oauth_token",
  clientAuth: "body",
  encoding: "form",
  pkce: false,
  refresh: "kept",
  authorize: { scope: ASANA_SCOPES },
  // Asana's page names the denial and the refusals by their RFC 6749 codes without quoting bodies; the texts below are RFC 6749's.
  denied: { error: "access_denied", error_description: "The user denied the request" },
  success: ({ grant, access, refresh }) => ({
    status: 200,
    body: {
      access_token: access,
      expires_in: 3600,
      token_type: "bearer",
      data: { id: 4673218951, gid: "4673218951", name: "Greg Sanchez", email: "gsanchez@example.com" },
      ...(grant === "code" ? { refresh_token: refresh } : {}),
    },
  }),
  refusal: (kind) =>
    kind === "bad_client"
      ? { status: 401, body: { error: "invalid_client", error_description: "The client credentials are invalid" } }
      : kind === "bad_refresh"
        ? { status: 400, body: { error: "invalid_grant", error_description: "The refresh token is invalid" } }
        : { status: 400, body: { error: "invalid_grant", error_description: "The authorization code is invalid or expired" } },
  expect: { expiresIn: 3600 },
};

const ZOOM_SCOPES =
  "user:read:user meeting:read:list_meetings meeting:read:meeting meeting:read:invitation meeting:write:meeting meeting:update:meeting meeting:delete:meeting meeting:read:list_past_participants cloud_recording:read:list_user_recordings";

export const zoom: ProviderDoc = {
  id: "zoom",
  docs: [
    // "POST https://zoom.us/oauth/token ... Authorization: Basic base64(Client_ID:Client_Secret) ... Content-Type: application/x-www-form-urlencoded
    //  grant_type=authorization_code, code, redirect_uri, code_verifier (if PKCE)"
    // "{ "access_token": "eyJ...", "token_type": "bearer", "refresh_token": "eyJ...", "expires_in": 3599, "scope": "user:read:user", "api_url": "https://api.zoom.us" }"
    // Refresh: "grant_type=refresh_token ... The response includes a new refresh token; the old one is no longer valid."
    // Errors: 400 { "reason": "Invalid authorization code", "error": "invalid_grant" }; 401 { "reason": "Invalid client_id or client_secret", "error": "invalid_client" }
    "https://developers.zoom.us/docs/integrations/oauth/",
  ],
  tokenUrl: "https://zoom.us/oauth/token",
  clientAuth: "basic",
  encoding: "form",
  pkce: true,
  refresh: "rotate",
  authorize: { scope: ZOOM_SCOPES },
  denied: { error: "access_denied" },
  success: ({ access, refresh }) => ({
    status: 200,
    body: { access_token: access, token_type: "bearer", refresh_token: refresh, expires_in: 3599, scope: ZOOM_SCOPES, api_url: "https://api.zoom.us" },
  }),
  refusal: (kind) =>
    kind === "bad_client"
      ? { status: 401, body: { reason: "Invalid client_id or client_secret", error: "invalid_client" } }
      : { status: 400, body: { reason: kind === "bad_refresh" ? "Invalid Token!" : "Invalid authorization code", error: "invalid_grant" } },
  expect: { scope: ZOOM_SCOPES, expiresIn: 3599 },
};

const AIRTABLE_SCOPES = "data.records:read data.records:write data.recordComments:read data.recordComments:write schema.bases:read user.email:read";

export const airtable: ProviderDoc = {
  id: "airtable",
  docs: [
    // Authorize: "code_challenge (required) ... code_challenge_method (required) S256"; "scope: a space delimited list of scopes"
    // Token: "POST https://airtable.com/oauth2/v1/token, Content-Type: application/x-www-form-urlencoded ... If your integration has a
    //  client secret: Authorization: Basic base64(client_id:client_secret)"; body code, redirect_uri, grant_type, code_verifier
    // "{ "access_token": "...", "refresh_token": "...", "token_type": "Bearer", "scope": "...", "expires_in": 3600, "refresh_expires_in": 5184000 }"
    // Refresh: "a new refresh token is returned ... the old refresh token is invalidated"; errors are RFC 6749 { "error": "invalid_grant", "error_description": ... }
    "https://airtable.com/developers/web/api/oauth-reference",
  ],
  tokenUrl: "https://airtable.com/oauth2/v1/token",
  clientAuth: "basic",
  encoding: "form",
  pkce: true,
  refresh: "rotate",
  authorize: { scope: AIRTABLE_SCOPES },
  denied: { error: "access_denied", error_description: "The user denied the request" },
  success: ({ access, refresh }) => ({
    status: 200,
    body: { access_token: access, refresh_token: refresh, token_type: "Bearer", scope: AIRTABLE_SCOPES, expires_in: 3600, refresh_expires_in: 5184000 },
  }),
  refusal: (kind) =>
    kind === "bad_client"
      ? { status: 401, body: { error: "invalid_client", error_description: "client authentication failed" } }
      : { status: 400, body: { error: "invalid_grant", error_description: "The provided authorization grant is invalid, expired, or revoked" } },
  expect: { scope: AIRTABLE_SCOPES, expiresIn: 3600 },
};

export const netlify: ProviderDoc = {
  id: "netlify",
  docs: [
    // Authorize: "https://app.netlify.com/authorize?client_id=...&response_type=code&redirect_uri=...&state=..." (no scopes: a token acts as the member)
    // Token: "POST https://api.netlify.com/oauth/token ... grant_type=authorization_code&code=...&client_id=...&client_secret=...&redirect_uri=..." (form body)
    // Answer: "{ "access_token": "...", "token_type": "Bearer", "created_at": 1500000000 }"; Netlify documents no refresh and no expiry
    "https://docs.netlify.com/api/get-started/#oauth2",
  ],
  tokenUrl: "https://api.netlify.com/oauth/token",
  clientAuth: "body",
  encoding: "form",
  pkce: false,
  authorize: { scope: null },
  denied: { error: "access_denied", error_description: "The resource owner or authorization server denied the request." },
  success: ({ access }) => ({ status: 200, body: { access_token: access, token_type: "Bearer", created_at: 1500000000 } }),
  // Netlify answers refusals in RFC 6749's words (Doorkeeper), quoted here from RFC 6749 section 5.2.
  refusal: (kind) =>
    kind === "bad_client"
      ? {
          status: 401,
          body: {
            error: "invalid_client",
            error_description: "Client authentication failed due to unknown client, no client authentication included, or unsupported authentication method.",
          },
        }
      : {
          status: 400,
          body: {
            error: "invalid_grant",
            error_description:
              "The provided authorization grant is invalid, expired, revoked, does not match the redirection URI used in the authorization request, or was issued to another client.",
          },
        },
  expect: {},
};

export const digitalocean: ProviderDoc = {
  id: "digitalocean",
  docs: [
    // Authorize: "https://cloud.digitalocean.com/v1/oauth/authorize?client_id=...&redirect_uri=...&response_type=code&scope=read%20write&state=..."
    // Token: "POST https://cloud.digitalocean.com/v1/oauth/token?grant_type=authorization_code&code=...&client_id=...&client_secret=...&redirect_uri=..."
    // Answer: "{"access_token":"547cac21118ae7","token_type":"bearer","expires_in":2592000,"refresh_token":"00a3aae641658d","scope":"read write",
    //   "info":{"name":"Sammy the Shark","email":"sammy@digitalocean.com","uuid":"e028b1b918853eca7fba208a9d7e9d29a6e93c57"}}"
    // Refresh: "grant_type=refresh_token&refresh_token=..." answers a new access token and a new refresh token
    "https://docs.digitalocean.com/reference/api/oauth/",
  ],
  tokenUrl: "https://cloud.digitalocean.com/v1/oauth/token",
  clientAuth: "body",
  encoding: "form",
  pkce: false,
  refresh: "rotate",
  authorize: { scope: "read write" },
  denied: { error: "access_denied", error_description: "The resource owner or authorization server denied the request." },
  success: ({ access, refresh }) => ({
    status: 200,
    body: {
      access_token: access,
      token_type: "bearer",
      expires_in: 2592000,
      refresh_token: refresh,
      scope: "read write",
      info: { name: "Sammy the Shark", email: "sammy@digitalocean.com", uuid: "e028b1b918853eca7fba208a9d7e9d29a6e93c57" },
    },
  }),
  refusal: (kind) =>
    kind === "bad_client"
      ? {
          status: 401,
          body: {
            error: "invalid_client",
            error_description: "Client authentication failed due to unknown client, no client authentication included, or unsupported authentication method.",
          },
        }
      : {
          status: 400,
          body: {
            error: "invalid_grant",
            error_description:
              "The provided authorization grant is invalid, expired, revoked, does not match the redirection URI used in the authorization request, or was issued to another client.",
          },
        },
  expect: { scope: "read write", expiresIn: 2592000 },
};

const ZENDESK_SCOPES = "tickets:read tickets:write users:read";

/**
 * Zendesk, on the member's own subdomain (`https://{subdomain}.zendesk.com`): not in `PROVIDERS`, whose
 * flows name no tenant; `connect-tenant.integration.test.ts` runs it with `?subdomain=acme`.
 */
export const zendeskAcme: ProviderDoc = {
  id: "zendesk",
  docs: [
    // "POST https://{subdomain}.zendesk.com/oauth/tokens" with grant_type=authorization_code, code, client_id, client_secret,
    // redirect_uri, scope and, with PKCE, code_verifier; the answer: "access_token", "refresh_token", "token_type": "bearer",
    // "scope", "expires_in", "refresh_token_expires_in". A refresh (grant_type=refresh_token) answers a new refresh token.
    "https://developer.zendesk.com/api-reference/ticketing/oauth/grant_type_tokens/",
    // Authorize at "https://{subdomain}.zendesk.com/oauth/authorizations/new?response_type=code&redirect_uri=...&client_id=...&scope=...";
    // a refusal comes back as "error=access_denied&error_description=...".
    "https://developer.zendesk.com/documentation/ticketing/working-with-oauth/creating-and-using-oauth-tokens-with-the-api/",
    "https://support.zendesk.com/hc/en-us/articles/4408845965210",
  ],
  tokenUrl: "https://acme.zendesk.com/oauth/tokens",
  clientAuth: "body",
  // The page shows a JSON body; the endpoint takes RFC 6749's form encoding as well, which the broker sends.
  encoding: "form",
  pkce: true,
  refresh: "rotate",
  authorize: { scope: ZENDESK_SCOPES, code_challenge_method: "S256" },
  denied: { error: "access_denied", error_description: "The resource owner or authorization server denied the request." },
  success: ({ access, refresh }) => ({
    status: 200,
    body: { access_token: access, refresh_token: refresh, token_type: "bearer", scope: ZENDESK_SCOPES, expires_in: 172800, refresh_token_expires_in: 800000 },
  }),
  refusal: (kind) =>
    kind === "bad_client"
      ? {
          status: 401,
          body: {
            error: "invalid_client",
            error_description: "Client authentication failed due to unknown client, no client authentication included, or unsupported authentication method.",
          },
        }
      : kind === "bad_request"
        ? { status: 400, body: { error: "invalid_request", error_description: "The request is missing a required parameter." } }
        : {
            status: 400,
            body: {
              error: "invalid_grant",
              error_description:
                "The provided authorization grant is invalid, expired, revoked, does not match the redirection URI used in the authorization request, or was issued to another client.",
            },
          },
  expect: { scope: ZENDESK_SCOPES, expiresIn: 172800 },
};

export const PROVIDERS: readonly ProviderDoc[] = [
  github,
  gitlab,
  googleCalendar,
  linear,
  notion,
  slack,
  stripe,
  todoist,
  microsoftOutlookMail,
  dropbox,
  box,
  jira,
  asana,
  zoom,
  airtable,
  netlify,
  digitalocean,
];
