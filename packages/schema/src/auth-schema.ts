import { z } from "zod";
import { authHostsSchema, credentialPlaceSchema } from "./auth-transport.js";
import { baseUrlProblem } from "./base-url.js";
import { ARG_NAME, dotPath, plainText, regexPattern, text } from "./field-schemas.js";
import { headerNameProblem, headerValueProblem } from "./headers.js";
import { oauthSchema } from "./oauth-schema.js";
import { OP_ID_PATTERN } from "./patterns.js";
import { problemCheck, rulesCheck, type IssueSink } from "./rule-checks.js";
import { parseTenantTemplate } from "./tenant-url.js";

const AUTH_SCHEME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** One tenant setting: its values match `pattern` (and are always one DNS label, or one path segment). */
export const tenantSchema = z.strictObject({
  pattern: regexPattern,
  description: plainText(500).optional(),
});

const authObjectFields = z.strictObject({
  kind: z.enum(["pat", "oauth", "both"]),
  base: z
    .string()
    .max(512)
    .regex(/^https:\/\//, "must be an https URL")
    .check(problemCheck(baseUrlProblem)),
  authorization: z.string().regex(AUTH_SCHEME, 'must be an HTTP auth scheme token (such as "Bearer") or "none"'),
  headers: z.record(z.string().check(problemCheck(headerNameProblem)), z.string().max(1024).check(problemCheck(headerValueProblem))).optional(),
  pat_help: text(1000).optional(),
  oauth: oauthSchema.optional(),
  /**
   * Settings of the connection that fill `{name}` placeholders of `base` (and of the OAuth
   * URLs): a tenant's own host label or path segment, such as Zendesk's `{subdomain}`.
   */
  tenant: z.record(z.string().regex(ARG_NAME, "tenant names are [a-z][a-z0-9_]*"), tenantSchema).optional(),
  /** The read op that answers who the credential is (GitHub `users.me`: `GET /user`). */
  identity: z.string().regex(OP_ID_PATTERN, "must name a read op of this manifest (namespace.verb)").optional(),
  /** Which picked fields of the identity op hold the account's id and display name; `id` and `name` when absent. */
  identity_fields: z.strictObject({ id: dotPath.optional(), name: dotPath.optional() }).optional(),
  /** Where a personal token travels instead of `Authorization` (a named header or query parameter). */
  credential: credentialPlaceSchema.optional(),
  /** Further hosts by name, each pinned like `base`; an op names one with `host`. */
  hosts: authHostsSchema.optional(),
});

export const authSchema = authObjectFields.check(rulesCheck(authRules));

/** Which auth blocks the kind needs, the tenant placeholders, the identity op's fields, and header names unique regardless of case. */
function authRules(auth: z.infer<typeof authObjectFields>, issue: IssueSink): void {
  const usesPat = auth.kind === "pat" || auth.kind === "both";
  const usesOauth = auth.kind === "oauth" || auth.kind === "both";
  if (usesPat && auth.pat_help === undefined) issue(["pat_help"], `is required when kind is "${auth.kind}"`);
  if (usesOauth && auth.oauth === undefined) issue(["oauth"], `is required when kind is "${auth.kind}"`);
  if (!usesOauth && auth.oauth !== undefined) issue(["oauth"], `must be absent when kind is "${auth.kind}"`);
  tenantProblems(auth, issue);
  if (auth.identity_fields !== undefined && auth.identity === undefined)
    issue(["identity_fields"], 'names identity fields, so "identity" must name the op that answers them');
  if (auth.headers !== undefined) headerRules(auth.headers, issue);
  if (auth.credential !== undefined) credentialRules(auth, usesPat, issue);
}

/** A credential place carries a personal token, and never under a name `headers` also sets. */
function credentialRules(auth: z.infer<typeof authObjectFields>, usesPat: boolean, issue: IssueSink): void {
  const credential = auth.credential as NonNullable<typeof auth.credential>;
  if (!usesPat) issue(["credential"], 'places a personal token, so kind must be "pat" or "both" (an OAuth token travels as Authorization)');
  if (credential.in === "header") {
    const lower = credential.name.toLowerCase();
    for (const name of Object.keys(auth.headers ?? {})) {
      if (name.toLowerCase() === lower) issue(["credential", "name"], `is also set in auth.headers ("${name}")`);
    }
  }
}

function headerRules(headers: Readonly<Record<string, string>>, issue: IssueSink): void {
  const names = Object.keys(headers);
  for (let index = 1; index < names.length; index += 1) {
    const name = names[index] as string;
    const lower = name.toLowerCase();
    // Names are few: the first earlier name equal but for case is the one reported.
    const first = names.find((earlier, at) => at < index && earlier.toLowerCase() === lower);
    if (first !== undefined) issue(["headers", name], `duplicates header "${first}" (names are case-insensitive)`);
  }
}

export type Tenant = z.infer<typeof tenantSchema>;
export type Auth = z.infer<typeof authSchema>;

function hasBrace(url: string | undefined): boolean {
  return url !== undefined && (url.includes("{") || url.includes("}"));
}

/** `auth.tenant` declares exactly the placeholders of `base`; OAuth URLs name only declared ones, each in its place. */
function tenantProblems(auth: z.infer<typeof authObjectFields>, issue: IssueSink): void {
  // Most manifests: no tenant setting and no brace in any URL, so nothing below can find a problem.
  if (
    auth.tenant === undefined &&
    !hasBrace(auth.base) &&
    !hasBrace(auth.oauth?.authorize_url) &&
    !hasBrace(auth.oauth?.token_url) &&
    !hasBrace(auth.oauth?.revocation?.url)
  ) {
    return;
  }
  const declared = new Set(Object.keys(auth.tenant ?? {}));
  const base = parseTenantTemplate(auth.base, 1);
  const inBase = new Set(base.ok ? base.placeholders.map((placeholder) => placeholder.name) : []);
  if (base.ok) {
    for (const name of inBase) if (!declared.has(name)) issue(["base"], `placeholder {${name}} names no tenant setting: declare it in auth.tenant`);
  }
  for (const name of declared) {
    if (!inBase.has(name) && base.ok) issue(["tenant", name], `is not used in base: a tenant setting fills a {${name}} placeholder of base`);
  }
  const urls: [PropertyKey[], string | undefined][] = [
    [["oauth", "authorize_url"], auth.oauth?.authorize_url],
    [["oauth", "token_url"], auth.oauth?.token_url],
    [["oauth", "revocation", "url"], auth.oauth?.revocation?.url],
  ];
  for (const [path, url] of urls) {
    if (url === undefined) continue;
    const parsed = parseTenantTemplate(url, declared.size);
    if (!parsed.ok) {
      issue(path, declared.size === 0 && /[{}]/.test(url) ? "holds braces, but no tenant setting is declared" : parsed.problem);
      continue;
    }
    for (const placeholder of parsed.placeholders) {
      if (!declared.has(placeholder.name)) issue(path, `placeholder {${placeholder.name}} names no tenant setting`);
    }
  }
}
