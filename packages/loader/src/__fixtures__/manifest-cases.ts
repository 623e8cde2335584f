type Json = Record<string, unknown>;

/** A copy of the fixture's valid manifest, for a case to change. */
export type MutableManifest = Json & { auth: Json; ops: Json[] };

const op = (manifest: { ops: Json[] }, index: number) => manifest.ops[index] as Json;

/**
 * Changes that make the valid manifest break one rule of schema v1 each: the path
 * and message the loader must report. Also run through both validators (the
 * compiled fast path and zod), which must agree.
 */
export const refusedCases: [string, (m: MutableManifest) => void, string, RegExp][] = [
  ["an unknown top-level key", (m) => void (m.extra = 1), "$", /unknown key "extra"/],
  ["an unknown auth key", (m) => void (m.auth.scope = "x"), "auth", /unknown key "scope"/],
  ["an unknown op key", (m) => void (op(m, 1).timeout_ms = {}), "ops[1]", /unknown key "timeout_ms"/],
  ["schema 2", (m) => void (m.schema = 2), "schema", /1/],
  ["an uppercase id", (m) => void (m.id = "Example"), "id", /lowercase slug/],
  ["an id over 40 characters", (m) => void (m.id = "a".repeat(41)), "id", /40/],
  ["an empty name", (m) => void (m.name = " "), "name", /empty/],
  ["a missing category", (m) => void delete m.category, "category", /./],
  ["an unknown auth kind", (m) => void (m.auth.kind = "apikey"), "auth.kind", /./],
  [
    "pat without pat_help",
    (m) => {
      m.auth.kind = "pat";
      delete m.auth.oauth;
      delete m.auth.pat_help;
    },
    "auth.pat_help",
    /required/,
  ],
  [
    "oauth kind without an oauth block",
    (m) => {
      m.auth.kind = "oauth";
      delete m.auth.oauth;
    },
    "auth.oauth",
    /required/,
  ],
  ["pat kind with an oauth block", (m) => void (m.auth.kind = "pat"), "auth.oauth", /absent/],
  ["an http token_url", (m) => void ((m.auth.oauth as Json).token_url = "http://example.com/token"), "auth.oauth.token_url", /https/],
  ["a missing token_url", (m) => void delete (m.auth.oauth as Json).token_url, "auth.oauth.token_url", /./],
  ["an unknown client_auth", (m) => void ((m.auth.oauth as Json).client_auth = "mtls"), "auth.oauth.client_auth", /./],
  ["an unknown token_encoding", (m) => void ((m.auth.oauth as Json).token_encoding = "xml"), "auth.oauth.token_encoding", /./],
  [
    "an authorize param the broker sets",
    (m) => void ((m.auth.oauth as Json).authorize_params = { state: "fixed" }),
    "auth.oauth.authorize_params.state",
    /broker/,
  ],
  [
    "scope fixed as an authorize param",
    (m) => void ((m.auth.oauth as Json).authorize_params = { scope: "repo" }),
    "auth.oauth.authorize_params.scope",
    /scopes/,
  ],
  [
    "an authorize param also fixed in authorize_url",
    (m) => {
      (m.auth.oauth as Json).authorize_url = "https://example.com/authorize?owner=user";
      (m.auth.oauth as Json).authorize_params = { owner: "team" };
    },
    "auth.oauth.authorize_params.owner",
    /already fixed/,
  ],
  ["an empty authorize param value", (m) => void ((m.auth.oauth as Json).authorize_params = { prompt: "" }), "auth.oauth.authorize_params.prompt", /empty/],
  [
    "a scope holding the declared separator",
    (m) => {
      (m.auth.oauth as Json).scope_separator = ",";
      (m.auth.oauth as Json).scopes = ["read,write"];
    },
    "auth.oauth.scopes[0]",
    /scope_separator/,
  ],
  ["an unknown scope separator", (m) => void ((m.auth.oauth as Json).scope_separator = ";"), "auth.oauth.scope_separator", /./],
  ["a token_path through __proto__", (m) => void ((m.auth.oauth as Json).token_path = "__proto__.x"), "auth.oauth.token_path", /not allowed/],
  ["a token_path naming a token member", (m) => void ((m.auth.oauth as Json).token_path = "access_token"), "auth.oauth.token_path", /object/],
  ["an unknown token_errors style", (m) => void ((m.auth.oauth as Json).token_errors = "sometimes"), "auth.oauth.token_errors", /./],
  ["an error code mapped outside RFC 6749", (m) => void ((m.auth.oauth as Json).error_codes = { bad_code: "nope" }), "auth.oauth.error_codes.bad_code", /./],
  [
    "bearer listed as an extra token type",
    (m) => void ((m.auth.oauth as Json).bearer_token_types = ["bot", "Bearer"]),
    "auth.oauth.bearer_token_types[1]",
    /always/,
  ],
  ["a bundle field that is a token member", (m) => void ((m.auth.oauth as Json).bundle_fields = ["refresh_token"]), "auth.oauth.bundle_fields[0]", /already/],
  ["an oauth authorization that is not a scheme", (m) => void ((m.auth.oauth as Json).authorization = "Bearer x"), "auth.oauth.authorization", /scheme/],
  ["an unknown oauth key", (m) => void ((m.auth.oauth as Json).pkce = false), "auth.oauth", /unknown key "pkce"/],
  ["an http base", (m) => void (m.auth.base = "http://api.example.com"), "auth.base", /https/],
  ["a base with an uppercase host", (m) => void (m.auth.base = "https://API.example.com"), "auth.base", /canonical/],
  ["a base with a default port", (m) => void (m.auth.base = "https://api.example.com:443"), "auth.base", /canonical/],
  ["a base with a port", (m) => void (m.auth.base = "https://api.example.com:8443"), "auth.base", /port/],
  ["a base with a trailing dot", (m) => void (m.auth.base = "https://api.example.com."), "auth.base", /./],
  ["a base with user info", (m) => void (m.auth.base = "https://user@api.example.com"), "auth.base", /user info/],
  ["a base with a query", (m) => void (m.auth.base = "https://api.example.com/v2?x=1"), "auth.base", /query/],
  ["a base with a fragment", (m) => void (m.auth.base = "https://api.example.com/#x"), "auth.base", /fragment/],
  ["a base with a trailing slash", (m) => void (m.auth.base = "https://api.example.com/v2/"), "auth.base", /slash/],
  ["an IPv4 base", (m) => void (m.auth.base = "https://127.0.0.1"), "auth.base", /IP address/],
  ["a hex IPv4 base", (m) => void (m.auth.base = "https://0x7f000001"), "auth.base", /./],
  ["an IPv6 base", (m) => void (m.auth.base = "https://[::1]"), "auth.base", /IP address/],
  ["a localhost base", (m) => void (m.auth.base = "https://localhost"), "auth.base", /public/],
  ["a single-label base", (m) => void (m.auth.base = "https://intranet"), "auth.base", /public/],
  ["a .local base", (m) => void (m.auth.base = "https://printer.local"), "auth.base", /public/],
  ["an .internal base", (m) => void (m.auth.base = "https://metadata.google.internal"), "auth.base", /public/],
  ["a base path with a dot segment", (m) => void (m.auth.base = "https://api.example.com/v2/.."), "auth.base", /./],
  ["an authorization with a space", (m) => void (m.auth.authorization = "Bearer x"), "auth.authorization", /scheme/],
  ["an owned header", (m) => void (m.auth.headers = { Authorization: "x" }), "auth.headers.Authorization", /executor/],
  ["a proxy header", (m) => void (m.auth.headers = { "Proxy-Authorization": "x" }), 'auth.headers["Proxy-Authorization"]', /executor/],
  ["a header value with CRLF", (m) => void (m.auth.headers = { Accept: "a\r\nX-Evil: 1" }), "auth.headers.Accept", /CR/],
  ["an invalid header name", (m) => void (m.auth.headers = { "Bad Name": "x" }), 'auth.headers["Bad Name"]', /header name/],
  ["headers equal but for case", (m) => void (m.auth.headers = { Accept: "a", accept: "b" }), "auth.headers.accept", /case/],
  ["no ops", (m) => void (m.ops = []), "ops", /at least one/],
  ["a bad op id", (m) => void (op(m, 0).id = "list"), "ops[0].id", /namespace\.verb/],
  ["a duplicate op id", (m) => void (op(m, 1).id = "repos.list"), "ops[1].id", /duplicates/],
  ["an unknown access", (m) => void (op(m, 0).access = "admin"), "ops[0].access", /./],
  ["an unknown method", (m) => void (op(m, 0).method = "HEAD"), "ops[0].method", /./],
  ["a write without confirm", (m) => void delete op(m, 2).confirm, "ops[2].confirm", /confirm/],
  ["a write with an empty confirm", (m) => void (op(m, 2).confirm = ""), "ops[2].confirm", /empty/],
  ["a GET with a body", (m) => void (op(m, 0).body_json = { a: 1 }), "ops[0].body_json", /GET/],
  ["an empty label", (m) => void (op(m, 0).label = ""), "ops[0].label", /empty/],
  ["a relative path", (m) => void (op(m, 0).path = "user/repos"), "ops[0].path", /single/],
  ["a path starting with //", (m) => void (op(m, 0).path = "//evil.example/x"), "ops[0].path", /single/],
  ["a path with ..", (m) => void (op(m, 0).path = "/user/../admin"), "ops[0].path", /dot segment/],
  ["a path with %2e%2e", (m) => void (op(m, 0).path = "/user/%2e%2E/admin"), "ops[0].path", /dot segment/],
  ["a path with .", (m) => void (op(m, 0).path = "/user/./repos"), "ops[0].path", /dot segment/],
  ["a path with a backslash", (m) => void (op(m, 0).path = "/user\\repos"), "ops[0].path", /\\/],
  ["a path with #", (m) => void (op(m, 0).path = "/user/repos#x"), "ops[0].path", /#/],
  ["a placeholder inside a segment", (m) => void (op(m, 1).path = "/repos/{owner}-x/{repo}/issues/{number}"), "ops[1].path", /whole segment/],
  ["a placeholder in the host position", (m) => void (op(m, 1).path = "{owner}/{repo}/issues/{number}"), "ops[1].path", /single/],
  ["an undeclared path placeholder", (m) => void (op(m, 1).path = "/repos/{owner}/{name}/issues/{number}"), "ops[1].path", /\{name\}/],
  ["an optional arg in a path segment", (m) => void ((op(m, 1).args as Json).owner = {}), "ops[1].args.owner.required", /required/],
  ["a placeholder in a query key", (m) => void (op(m, 0).path = "/user/repos?{sort}=1"), "ops[0].path", /query key/],
  ["a placeholder inside a query value", (m) => void (op(m, 0).path = "/user/repos?sort=x{sort}"), "ops[0].path", /whole value/],
  ["an undeclared query placeholder", (m) => void (op(m, 0).path = "/user/repos?q={q}"), "ops[0].path", /\{q\}/],
  ["an undeclared confirm placeholder", (m) => void (op(m, 2).confirm = "Open {name}?"), "ops[2].confirm", /\{name\}/],
  ["an undeclared body placeholder", (m) => void ((op(m, 2).body_json as Json).title = "{name}"), "ops[2].body_json.title", /\{name\}/],
  ["a bad arg name", (m) => void (op(m, 0).args = { Sort: {} }), "ops[0].args.Sort", /arg names/],
  ["an unknown arg key", (m) => void (op(m, 0).args = { sort: { kind: "string" } }), "ops[0].args.sort", /unknown key "kind"/],
  ["a max_length over 4096", (m) => void (op(m, 0).args = { sort: { max_length: 5000 } }), "ops[0].args.sort.max_length", /./],
  ["an invalid pattern", (m) => void (op(m, 0).args = { sort: { pattern: "(" } }), "ops[0].args.sort.pattern", /regular expression/],
  ["a pattern invalid only with the u flag", (m) => void (op(m, 0).args = { sort: { pattern: "\\-" } }), "ops[0].args.sort.pattern", /u flag/],
  ["an empty enum", (m) => void (op(m, 0).args = { sort: { enum: [] } }), "ops[0].args.sort.enum", /./],
  ["an empty pick", (m) => void (op(m, 0).pick = {}), "ops[0].pick", /root or at least one field/],
  ["a pick through __proto__", (m) => void (op(m, 0).pick = { fields: ["__proto__.x"] }), "ops[0].pick.fields[0]", /not allowed/],
  ["a pick through constructor", (m) => void (op(m, 0).pick = { root: "constructor" }), "ops[0].pick.root", /not allowed/],
  ["a pick with an empty segment", (m) => void (op(m, 0).pick = { fields: ["a..b"] }), "ops[0].pick.fields[0]", /empty segment/],
  ["an unknown encoding", (m) => void (op(m, 3).encoding = "xml"), "ops[3].encoding", /./],
  ["a form body that is an array", (m) => void (op(m, 3).body_json = ["{email}"]), "ops[3].body_json", /object/],
  ["a non-string arg value type", (m) => void (op(m, 0).args = { sort: { required: "yes" } }), "ops[0].args.sort.required", /./],
  ["a name of ideographic spaces", (m) => void (m.name = "\u3000\u3000"), "name", /empty/],
  [
    "a confirm naming an undeclared arg twice",
    (m) => void (op(m, 2).confirm = "Open {title}: {nope}, {nope}"),
    "ops[2].confirm",
    /\{nope\} names no declared arg/,
  ],
  [
    "an enum value over max_length in astral letters",
    (m) => void (op(m, 0).args = { sort: { max_length: 2, enum: ["𝒜𝒜𝒜"] } }),
    "ops[0].args.sort.enum[0]",
    /longer than max_length 2/,
  ],
  [
    "a suffixed path placeholder naming an optional arg",
    (m) => {
      op(m, 1).path = "/repos/{owner}/{repo}/issues/{number}.json";
      ((op(m, 1).args as Json).number as Json).required = false;
    },
    "ops[1].args.number.required",
    /must be required/,
  ],
  [
    "an undeclared query placeholder after an encoded segment",
    (m) => void (op(m, 0).path = "/user/my%20repos?sort={nope}"),
    "ops[0].path",
    /\{nope\} names no declared arg/,
  ],
  [
    "an undeclared body placeholder inside an array",
    (m) => void (op(m, 2).body_json = { title: "{title}", labels: ["bot", { name: "{nope}" }] }),
    "ops[2].body_json.labels[1].name",
    /\{nope\} names no declared arg/,
  ],
  [
    "a write's confirm line without one of its required args",
    (m) => void (op(m, 2).confirm = "Open “{title}” in {owner}?"),
    "ops[2].confirm",
    /leaves out the required arg \{repo\}/,
  ],
  [
    "a write's confirm line holding a required arg only inside a longer placeholder",
    (m) => void (op(m, 2).confirm = "Open “{title}” in {owner}/{repos}?"),
    "ops[2].confirm",
    /\{repos\} names no declared arg/,
  ],
  [
    "an enum value that is not of the arg's type",
    (m) => void (op(m, 0).args = { sort: { type: "integer", enum: ["1", "two"] } }),
    "ops[0].args.sort.enum[1]",
    /not of the arg's type integer/,
  ],
  ["a dot segment before the query", (m) => void (op(m, 0).path = "/user/..?per_page=20"), "ops[0].path", /dot segment/],
  ["a dot segment at the end", (m) => void (op(m, 0).path = "/user/."), "ops[0].path", /dot segment/],
  ["an empty query", (m) => void (op(m, 0).path = "/user/repos?"), "ops[0].path", /key=value/],
];

/** Changes that look like mistakes but are valid. */
export const nearMisses: [string, (m: MutableManifest) => void][] = [
  ["the valid manifest itself", () => undefined],
  ["a base without a path prefix", (m) => void (m.auth.base = "https://api.example.com")],
  ["a punycode host", (m) => void (m.auth.base = "https://api.xn--bcher-kva.example")],
  [
    "pat kind with pat_help only",
    (m) => {
      m.auth.kind = "pat";
      delete m.auth.oauth;
    },
  ],
  [
    "oauth kind without pat_help",
    (m) => {
      m.auth.kind = "oauth";
      delete m.auth.pat_help;
    },
  ],
  ["authorization none", (m) => void (m.auth.authorization = "none")],
  ["a read over POST (GraphQL)", (m) => void Object.assign(op(m, 0), { method: "POST", body_json: { query: "{ viewer { id } }" } })],
  ["literal braces around anything but a name", (m) => void ((op(m, 2).body_json as Json).query = "query { viewer { id name } }")],
  ["percent-encoded literal segments", (m) => void (op(m, 0).path = "/user/my%20repos")],
  ["a trailing slash", (m) => void (op(m, 0).path = "/user/repos/")],
  ["a write with a DELETE", (m) => void Object.assign(op(m, 2), { method: "DELETE" })],
  ["a pick with a root only", (m) => void (op(m, 0).pick = { root: "data.items" })],
  ["dashes and digits in a pick path", (m) => void (op(m, 0).pick = { fields: ["x-rate.limit_2"] })],
  ["an empty scope list", (m) => void ((m.auth.oauth as Json).scopes = [])],
  [
    "every oauth dialect field",
    (m) =>
      void Object.assign(m.auth.oauth as Json, {
        authorize_url: "https://example.com/authorize?owner=user",
        client_auth: "body",
        token_encoding: "json",
        authorize_params: { access_type: "offline", prompt: "consent" },
        scope_separator: ",",
        token_path: "authed_user",
        token_errors: "ok_false",
        error_codes: { invalid_code: "invalid_grant", bad_client_secret: "invalid_client" },
        bearer_token_types: ["bot", "user"],
        bundle_fields: ["stripe_user_id", "team.id"],
        authorization: "Bearer",
      }),
  ],
  ["no $schema", (m) => void delete m.$schema],
  ["a segment of three dots", (m) => void (op(m, 0).path = "/user/.../repos")],
  ["a suffixed path placeholder", (m) => void (op(m, 1).path = "/repos/{owner}/{repo}.git/issues/{number}")],
  ["a query value holding / and ?", (m) => void (op(m, 0).path = "/user/repos?q=a/b?c&sort={sort}")],
  ["an enum of astral values within max_length", (m) => void (op(m, 0).args = { sort: { max_length: 2, enum: ["𝒜𝒜"] } })],
  ["a name after an ideographic space", (m) => void (m.name = "\u3000Example")],
  [
    "a write's confirm line showing a required arg twice and in double braces",
    (m) => void (op(m, 2).confirm = "Open “{title}” in {{owner}}/{repo} ({owner})?"),
  ],
];
