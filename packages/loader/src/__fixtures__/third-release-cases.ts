import { validManifest } from "./valid-manifest.js";

type Json = Record<string, unknown>;
export type Manifest = Json & { auth: Json; ops: Json[] };

const op = (manifest: { ops: Json[] }, index: number) => manifest.ops[index] as Json;
const oauth = (manifest: Manifest) => manifest.auth.oauth as Json;
/** issues.get (ops[1]) as the identity op: it takes required args, so tests use a read without any. */
export const addMe = (manifest: Manifest, pick: Json = { fields: ["id", "login", "name"] }) =>
  void manifest.ops.push({ id: "users.me", label: "Who you are", access: "read", method: "GET", path: "/user", pick });
export const addContinue = (manifest: Manifest, args: Json = { cursor: { required: true, max_length: 2048 } }) =>
  void manifest.ops.push({
    id: "repos.list_continue",
    label: "List more repositories",
    access: "read",
    method: "POST",
    path: "/user/repos/continue",
    args,
    body_json: { cursor: "{cursor}" },
    page: { from: "body", arg: "cursor", cursor: "cursor", more: "has_more" },
    pick: { fields: ["full_name"] },
  });
const preview = (manifest: Manifest, value: Json) => void (op(manifest, 2).preview = value);
const goodPreview = { op: "issues.get", args: { owner: "{owner}", repo: "{repo}", number: "1" }, line: "“{title}” by {user.login}" };

/** Every third-release field at once, on the valid manifest: it loads. */
export function allThirdReleaseFields(m: Manifest): void {
  addMe(m);
  m.auth.identity = "users.me";
  m.auth.identity_fields = { name: "login" };
  m.auth.base = "https://{subdomain}.example.com/v2";
  m.auth.tenant = { subdomain: { pattern: "[a-z0-9-]{3,30}", description: "Your site's subdomain" } };
  oauth(m).authorize_url = "https://{subdomain}.example.com/oauth/authorize";
  oauth(m).revocation = { url: "https://{subdomain}.example.com/oauth/revoke", dialect: "github" };
  oauth(m).revoke_help = "https://example.com/settings/applications";
  preview(m, goodPreview);
  op(m, 1).path = "/repos/{owner}/{repo}/issues/{number}.json";
  addContinue(m);
  op(m, 0).page = { from: "body", cursor: "cursor", more: "has_more", next_op: "repos.list_continue" };
  m.ops.push({
    id: "records.query",
    label: "Query",
    access: "read",
    method: "GET",
    path: "/query?q={q}",
    args: { q: { required: true } },
    page: { from: "next_path", path: "nextRecordsUrl" },
    pick: { root: "records", fields: ["Id"] },
  });
  m.ops.push({
    id: "messages.list",
    label: "List messages",
    access: "read",
    method: "GET",
    path: "/me/messages?$top=50",
    page: { from: "next_path", top_key: "@odata.nextLink" },
    pick: { root: "value", fields: ["id"] },
  });
  op(m, 3).args = { email: { required: true }, plan: {}, seats: { type: "integer" } };
  op(m, 3).body_json = { email: "{email}", metadata: { plan: "{plan}" }, quantity: "{seats}" };
}

/** Third-release fields used wrongly: the path and message the loader reports. Both validators must refuse them. */
export const thirdReleaseRefusals: [string, (m: Manifest) => void, string, RegExp][] = [
  // identity
  ["an identity op that does not exist", (m) => void (m.auth.identity = "users.me"), "auth.identity", /names no op/],
  ["an identity op that is a write", (m) => void (m.auth.identity = "issues.create"), "auth.identity", /must name a read/],
  ["an identity op with required args", (m) => void (m.auth.identity = "issues.get"), "auth.identity", /required args/],
  [
    "an identity op that pages",
    (m) => {
      addMe(m);
      Object.assign(m.ops.at(-1) as Json, { path: "/user?page={page}", args: { page: {} }, page: { from: "link", arg: "page", query_key: "page" } });
      m.auth.identity = "users.me";
    },
    "auth.identity",
    /answers one account, not a list/,
  ],
  [
    "an identity op that picks no id",
    (m) => {
      addMe(m, { fields: ["login", "name"] });
      m.auth.identity = "users.me";
    },
    "auth.identity",
    /account's id "id" is not a picked field/,
  ],
  [
    "identity_fields.id not picked",
    (m) => {
      addMe(m);
      m.auth.identity = "users.me";
      m.auth.identity_fields = { id: "node_id" };
    },
    "auth.identity_fields.id",
    /"node_id" is not a picked field/,
  ],
  [
    "identity_fields.name not picked",
    (m) => {
      addMe(m);
      m.auth.identity = "users.me";
      m.auth.identity_fields = { name: "email" };
    },
    "auth.identity_fields.name",
    /"email" is not a picked field/,
  ],
  ["identity_fields without identity", (m) => void (m.auth.identity_fields = { id: "id" }), "auth.identity_fields", /"identity" must name/],
  ["an identity that is not an op id", (m) => void (m.auth.identity = "GET /user"), "auth.identity", /namespace\.verb/],
  // revocation
  ["a revocation url over http", (m) => void (oauth(m).revocation = { url: "http://example.com/revoke" }), "auth.oauth.revocation.url", /https/],
  [
    "an unknown revocation dialect",
    (m) => void (oauth(m).revocation = { url: "https://example.com/revoke", dialect: "carrier-pigeon" }),
    "auth.oauth.revocation.dialect",
    /./,
  ],
  [
    "an unknown revocation key",
    (m) => void (oauth(m).revocation = { url: "https://example.com/revoke", method: "DELETE" }),
    "auth.oauth.revocation",
    /unknown key "method"/,
  ],
  ["a revoke_help that is not https", (m) => void (oauth(m).revoke_help = "javascript:alert(1)"), "auth.oauth.revoke_help", /https/],
  // preview
  ["a preview op that does not exist", (m) => preview(m, { ...goodPreview, op: "issues.read" }), "ops[2].preview.op", /names no op/],
  ["a preview op that is a write", (m) => preview(m, { ...goodPreview, op: "customers.create", args: {} }), "ops[2].preview.op", /must name a read/],
  [
    "a preview arg the read does not take",
    (m) => preview(m, { ...goodPreview, args: { ...goodPreview.args, state: "open" } }),
    "ops[2].preview.args.state",
    /not an arg of issues\.get/,
  ],
  [
    "a preview placeholder that is no write arg",
    (m) => preview(m, { ...goodPreview, args: { ...goodPreview.args, number: "{number}" } }),
    "ops[2].preview.args.number",
    /names no arg of issues\.create/,
  ],
  [
    "a preview leaving out a required read arg",
    (m) => preview(m, { ...goodPreview, args: { owner: "{owner}", repo: "{repo}" } }),
    "ops[2].preview.args",
    /required arg "number"/,
  ],
  [
    "a required read arg filled from an optional write arg",
    (m) => preview(m, { ...goodPreview, args: { ...goodPreview.args, number: "{body}" } }),
    "ops[2].preview.args.number",
    /does not require/,
  ],
  [
    "a line placeholder that is not a picked field",
    (m) => preview(m, { ...goodPreview, line: "{title} ({state})" }),
    "ops[2].preview.line",
    /\{state\} is not a picked field of issues\.get/,
  ],
  ["a line with no placeholder", (m) => preview(m, { ...goodPreview, line: "an issue" }), "ops[2].preview.line", /at least one picked field/],
  ["a line with a bidi control", (m) => preview(m, { ...goodPreview, line: "{title}\u202e" }), "ops[2].preview.line", /bidi/],
  [
    "a preview on a read",
    (m) => void (op(m, 0).preview = { op: "issues.get", args: { owner: "a", repo: "b", number: "1" }, line: "{title}" }),
    "ops[0].preview",
    /only a write/,
  ],
  // typed args
  ["an unknown arg type", (m) => void (op(m, 0).args = { sort: { type: "date" } }), "ops[0].args.sort.type", /./],
  [
    "an enum value outside the arg's type",
    (m) => void (op(m, 0).args = { sort: { type: "integer", enum: ["1", "two"] } }),
    "ops[0].args.sort.enum[1]",
    /integer/,
  ],
  // suffixes
  [
    "a suffix that does not start with : or .",
    (m) => void (op(m, 1).path = "/repos/{owner}/{repo}/issues/{number}-x"),
    "ops[1].path",
    /suffix that starts with ":" or "."/,
  ],
  ["a suffix holding another placeholder", (m) => void (op(m, 1).path = "/repos/{owner}/{repo}/issues/{number}.{repo}"), "ops[1].path", /whole segment/],
  ["a placeholder after a prefix", (m) => void (op(m, 1).path = "/repos/{owner}/{repo}/issues/x{number}"), "ops[1].path", /whole segment/],
  // paging
  [
    "a next_op that does not exist",
    (m) => void (op(m, 0).page = { from: "body", cursor: "cursor", next_op: "repos.more" }),
    "ops[0].page.next_op",
    /names no op/,
  ],
  ["a next_op that is the op itself", (m) => void (op(m, 0).page = { from: "body", cursor: "cursor", next_op: "repos.list" }), "ops[0].page.next_op", /itself/],
  [
    "a next_op that is a write",
    (m) => void (op(m, 0).page = { from: "body", cursor: "cursor", next_op: "issues.create" }),
    "ops[0].page.next_op",
    /must name a read/,
  ],
  [
    "a next_op without its own page.arg",
    (m) => void (op(m, 0).page = { from: "body", cursor: "cursor", next_op: "issues.get" }),
    "ops[0].page.next_op",
    /own page\.arg/,
  ],
  [
    "a next_op with other required args",
    (m) => {
      addContinue(m, { cursor: { required: true }, team: { required: true } });
      op(m, 0).page = { from: "body", cursor: "cursor", next_op: "repos.list_continue" };
    },
    "ops[0].page.next_op",
    /besides its cursor \(team\)/,
  ],
  [
    "both arg and next_op",
    (m) => {
      addContinue(m);
      op(m, 0).page = { from: "body", arg: "sort", cursor: "cursor", next_op: "repos.list_continue" };
    },
    "ops[0].page.arg",
    /leave "arg" out/,
  ],
  ["neither arg nor next_op", (m) => void (op(m, 0).page = { from: "body", cursor: "cursor" }), "ops[0].page", /needs "arg"/],
  ["a required cursor on an op no one continues to", (m) => addContinue(m), "ops[4].args.cursor.required", /must be optional/],
  ["a next_path on a POST", (m) => void (op(m, 2).page = { from: "next_path", path: "next" }), "ops[2].page.from", /GET/],
  [
    "a next_path with next_op",
    (m) => void (op(m, 0).page = { from: "next_path", path: "next", next_op: "issues.get" }),
    "ops[0].page",
    /unknown key "next_op"/,
  ],
  ["a next_path through __proto__", (m) => void (op(m, 0).page = { from: "next_path", path: "__proto__.x" }), "ops[0].page.path", /not allowed/],
  [
    "a next_path with both path and top_key",
    (m) => void (op(m, 0).page = { from: "next_path", path: "next", top_key: "@odata.nextLink" }),
    "ops[0].page",
    /exactly one of "path" \(a dot-path\) and "top_key"/,
  ],
  ["a next_path with neither path nor top_key", (m) => void (op(m, 0).page = { from: "next_path" }), "ops[0].page", /exactly one of "path"/],
  ["a next_path top_key of __proto__", (m) => void (op(m, 0).page = { from: "next_path", top_key: "__proto__" }), "ops[0].page.top_key", /not __proto__/],
  ["a next_path top_key with a space", (m) => void (op(m, 0).page = { from: "next_path", top_key: "next link" }), "ops[0].page.top_key", /printable ASCII/],
  ["a next_path top_key of 65 characters", (m) => void (op(m, 0).page = { from: "next_path", top_key: "k".repeat(65) }), "ops[0].page.top_key", /1 to 64/],
  // tenant hosts
  ["a tenant placeholder that is not declared", (m) => void (m.auth.base = "https://{subdomain}.example.com/v2"), "auth.base", /declare it in auth\.tenant/],
  ["a tenant declared but not used", (m) => void (m.auth.tenant = { subdomain: { pattern: "[a-z]+" } }), "auth.tenant.subdomain", /not used in base/],
  [
    "a tenant without a pattern",
    (m) => {
      m.auth.base = "https://{subdomain}.example.com/v2";
      m.auth.tenant = { subdomain: { description: "x" } };
    },
    "auth.tenant.subdomain.pattern",
    /./,
  ],
  [
    "a tenant pattern that is no u regex",
    (m) => {
      m.auth.base = "https://{subdomain}.example.com/v2";
      m.auth.tenant = { subdomain: { pattern: "[a-z" } };
    },
    "auth.tenant.subdomain.pattern",
    /regular expression/,
  ],
  [
    "a tenant in front of a one-label suffix",
    (m) => {
      m.auth.base = "https://{subdomain}.com/v2";
      m.auth.tenant = { subdomain: { pattern: "[a-z]+" } };
    },
    "auth.base",
    /at least two labels/,
  ],
  [
    "a tenant inside a label",
    (m) => {
      m.auth.base = "https://api-{subdomain}.example.com/v2";
      m.auth.tenant = { subdomain: { pattern: "[a-z]+" } };
    },
    "auth.base",
    /whole leftmost label/,
  ],
  [
    "a tenant that is not the leftmost label",
    (m) => {
      m.auth.base = "https://api.{subdomain}.example.com/v2";
      m.auth.tenant = { subdomain: { pattern: "[a-z]+" } };
    },
    "auth.base",
    /whole leftmost label/,
  ],
  [
    "a tenant that is the whole host",
    (m) => {
      m.auth.base = "https://{subdomain}/v2";
      m.auth.tenant = { subdomain: { pattern: "[a-z]+" } };
    },
    "auth.base",
    /leftmost label/,
  ],
  [
    "a tenant inside a path segment",
    (m) => {
      m.auth.base = "https://api.example.com/ex/site-{cloudid}";
      m.auth.tenant = { cloudid: { pattern: "[a-z]+" } };
    },
    "auth.base",
    /whole path segment/,
  ],
  [
    "two tenant placeholders",
    (m) => {
      m.auth.base = "https://{a}.example.com/{b}";
      m.auth.tenant = { a: { pattern: "[a-z]+" }, b: { pattern: "[a-z]+" } };
    },
    "auth.base",
    /at most 1/,
  ],
  ["stray braces in base", (m) => void (m.auth.base = "https://api.example.com/{Bad}"), "auth.base", /braces/],
  [
    "a tenant base on a private suffix",
    (m) => {
      m.auth.base = "https://{subdomain}.corp.internal/v2";
      m.auth.tenant = { subdomain: { pattern: "[a-z]+" } };
    },
    "auth.base",
    /not a public name/,
  ],
  [
    "an OAuth URL naming an undeclared tenant",
    (m) => {
      m.auth.base = "https://{subdomain}.example.com/v2";
      m.auth.tenant = { subdomain: { pattern: "[a-z]+" } };
      oauth(m).token_url = "https://{site}.example.com/token";
    },
    "auth.oauth.token_url",
    /names no tenant setting/,
  ],
  [
    "an OAuth URL with a tenant but none declared",
    (m) => void (oauth(m).token_url = "https://{subdomain}.example.com/token"),
    "auth.oauth.token_url",
    /no tenant setting is declared/,
  ],
  [
    "an OAuth URL with a tenant inside a label",
    (m) => {
      m.auth.base = "https://{subdomain}.example.com/v2";
      m.auth.tenant = { subdomain: { pattern: "[a-z]+" } };
      oauth(m).authorize_url = "https://x{subdomain}.example.com/authorize";
    },
    "auth.oauth.authorize_url",
    /leftmost label/,
  ],
];

// The attack of security review finding 12: raw JSON text, as a registry file or a pull request holds it. JSON.parse keeps
// "__proto__" as an own key; a record rebuilt by assignment used to drop it, and validate passed.
const valid = JSON.stringify(validManifest());
/** [where, the manifest text, the path of the key]. */
export const prototypeKeyAttacks: [string, string, string][] = [
  ["auth.headers", valid.replace('"headers":{', '"headers":{"__proto__":{"X-Injected":"1"},'), "auth.headers.__proto__"],
  [
    "body_json, nested",
    valid.replace('"body_json":{"title":"{title}"', '"body_json":{"title":"{title}","extra":[{"__proto__":{"admin":true}}]'),
    "ops[2].body_json.extra[0].__proto__",
  ],
  [
    "body_json constructor",
    valid.replace('"body_json":{"title":"{title}"', '"body_json":{"constructor":{"prototype":{"x":1}},"title":"{title}"'),
    "ops[2].body_json.constructor",
  ],
  ["args", valid.replace('"args":{"sort":', '"args":{"__proto__":{"required":true},"sort":'), "ops[0].args.__proto__"],
  [
    "preview.args",
    valid.replace(
      '"confirm":"Open',
      '"preview":{"op":"issues.get","args":{"__proto__":"{owner}","owner":"{owner}","repo":"{repo}","number":"1"},"line":"{title}"},"confirm":"Open',
    ),
    "ops[2].preview.args.__proto__",
  ],
  ["authorize_params", valid.replace('"scopes":[', '"authorize_params":{"prototype":"x"},"scopes":['), "auth.oauth.authorize_params.prototype"],
  ["tenant", valid.replace('"pat_help":', '"tenant":{"__proto__":{"pattern":"x"}},"pat_help":'), "auth.tenant.__proto__"],
  ["the top level", valid.replace('"schema":1,', '"schema":1,"__proto__":{"name":"Spoof"},'), "__proto__"],
];
