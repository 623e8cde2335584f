import { isBase64UrlOf } from "./base64url.js";
import { GrantError } from "./grant-error.js";
import { checkKeys, isPlainObject } from "./strict-json.js";
import { OP_ID_PATTERN } from "@eleven-integrations/schema";
import { checkGrantPolicy, policyJson, type GrantPolicy } from "./grant-policy.js";

/** What a member granted a bot: the signed payload of a grant, its fields as on the wire. */
export interface Grant {
  v: 1;
  typ: "grant";
  /** Random id of this grant (16 bytes, unpadded base64url); confirmations name it. */
  gid: string;
  /** The member's Ed25519 public key (unpadded base64url) that signed the grant. */
  iss: string;
  /** The bot's X25519 public key (unpadded base64url) the grant was sealed to. */
  aud: string;
  /** The only integration this grant may run. */
  integration: string;
  /** Lowercase hex hash of the manifest the member saw; the sidecar runs only that manifest. */
  manifest_hash: string;
  /** `read` grants never run a `write` op. */
  access: "read" | "write";
  /** When present, the only ops this grant may run. */
  ops?: string[];
  /**
   * Which account at the provider the credential acts as (from the broker's
   * identity op, or set by the member). Shown to the member and the bot; any
   * text but lone surrogates, so show it through `displayAccount`.
   */
  account?: GrantAccount;
  /**
   * The connection's tenant settings (`{ subdomain: "acme" }`): signed with the
   * rest, so the bot cannot point the credential at another tenant.
   */
  connection?: Record<string, string>;
  /** The member's credential for the integration; `expires_at` (Unix seconds) when the provider said when it ends. */
  cred: GrantCredential;
  /** The member's policy (presets by class and per-op rules); absent: reads allow, writes ask. See `decideByPolicy`. */
  policy?: GrantPolicy;
  /** Issued at, Unix seconds. */
  iat: number;
  /** Expires at, Unix seconds; at most an hour after `iat`. */
  exp: number;
}

/** The account a grant's credential acts as. */
export interface GrantAccount {
  /** The provider's id for the account (a number is written in decimal): 1 to 256 code points. */
  id: string;
  /** Its display name: 1 to 256 code points. */
  name: string;
}

/** A grant's credential. */
export interface GrantCredential {
  kind: "pat" | "oauth";
  token: string;
  /** When the provider said the token ends, Unix seconds; absent when it did not say. */
  expires_at?: number;
}

const REQUIRED = ["v", "typ", "gid", "iss", "aud", "integration", "manifest_hash", "access", "cred", "iat", "exp"];
const OPTIONAL = ["ops", "account", "connection", "policy"];
const CRED_KEYS = ["kind", "token"];
const CRED_OPTIONAL = ["expires_at"];
const ACCOUNT_KEYS = ["id", "name"];
/** Longest account id or name, in code points. */
export const MAX_ACCOUNT_TEXT = 256;
/** Most settings one connection carries. */
export const MAX_CONNECTION_SETTINGS = 8;
const CONNECTION_KEY = /^[a-z][a-z0-9_]{0,39}$/;
// What a host label or a path segment may hold, at a DNS label's length: the manifest's own
// pattern (and, in a host, the lowercase DNS label rule) is held where the base is resolved.
const CONNECTION_VALUE = /^[A-Za-z0-9_-]{1,63}$/;
const LONE_SURROGATE = /\p{Cs}/u;

export const INTEGRATION_ID = /^[a-z][a-z0-9-]{0,39}$/;
export const OP_ID = OP_ID_PATTERN;
const MANIFEST_HASH = /^[0-9a-f]{64}$/;
// Visible ASCII: credentials go into an HTTP header, where anything else is either invalid or an injection.
const TOKEN = /^[\x21-\x7e]+$/;

function refuse(message: string): never {
  throw new GrantError("malformed", `grant payload: ${message}`);
}

/** A Unix time in seconds: a non-negative safe integer. */
export function isUnixSeconds(value: unknown): value is number {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 0;
}

/** True for an op id shaped `namespace.verb`. */
export function isOpId(value: unknown): value is string {
  return typeof value === "string" && OP_ID.test(value);
}

/**
 * Checks every field of a grant payload, the same way when issuing and when
 * opening, and returns a fresh `Grant`. Throws `GrantError` `malformed`.
 */
export function checkGrantPayload(object: Record<string, unknown>): Grant {
  checkKeys(object, REQUIRED, OPTIONAL, "grant payload");
  const { v, typ, gid, iss, aud, integration, manifest_hash, access, ops, account, connection, policy, cred, iat, exp } = object;
  if (v !== 1) refuse("`v` must be 1");
  if (typ !== "grant") refuse('`typ` must be "grant"');
  if (!isBase64UrlOf(gid, 16)) refuse("`gid` must be 16 bytes of unpadded base64url");
  if (!isBase64UrlOf(iss, 32)) refuse("`iss` must be a 32-byte key in unpadded base64url");
  if (!isBase64UrlOf(aud, 32)) refuse("`aud` must be a 32-byte key in unpadded base64url");
  if (typeof integration !== "string" || !INTEGRATION_ID.test(integration)) refuse("`integration` is not an integration id");
  if (typeof manifest_hash !== "string" || !MANIFEST_HASH.test(manifest_hash)) {
    refuse("`manifest_hash` must be 64 lowercase hex digits");
  }
  if (access !== "read" && access !== "write") refuse('`access` must be "read" or "write"');
  if (!isUnixSeconds(iat)) refuse("`iat` must be Unix seconds");
  if (!isUnixSeconds(exp)) refuse("`exp` must be Unix seconds");
  if (exp <= iat) refuse("`exp` must be after `iat`");
  if (!isPlainObject(cred)) refuse("`cred` must be an object");
  checkKeys(cred, CRED_KEYS, CRED_OPTIONAL, "grant payload `cred`");
  const { kind, token, expires_at } = cred;
  if (kind !== "pat" && kind !== "oauth") refuse('`cred.kind` must be "pat" or "oauth"');
  if (typeof token !== "string" || !TOKEN.test(token)) refuse("`cred.token` must be non-empty visible ASCII");
  const credential: GrantCredential = { kind, token };
  if (expires_at !== undefined) {
    if (!isUnixSeconds(expires_at)) refuse("`cred.expires_at` must be Unix seconds");
    credential.expires_at = expires_at;
  }

  const grant: Grant = { v, typ, gid, iss, aud, integration, manifest_hash, access, cred: credential, iat, exp };
  if (ops !== undefined) grant.ops = checkOps(ops);
  if (account !== undefined) grant.account = checkAccount(account);
  if (connection !== undefined) grant.connection = checkConnection(connection);
  if (policy !== undefined) grant.policy = checkGrantPolicy(policy);
  return grant;
}

function checkAccountText(value: unknown, field: string): string {
  if (typeof value !== "string" || value.length === 0) refuse(`\`account.${field}\` must be a non-empty string`);
  if (value.length > MAX_ACCOUNT_TEXT * 2 || [...value].length > MAX_ACCOUNT_TEXT) {
    refuse(`\`account.${field}\` is over ${MAX_ACCOUNT_TEXT} characters`);
  }
  // A lone surrogate has no UTF-8 form, so no canonical spelling.
  if (LONE_SURROGATE.test(value)) refuse(`\`account.${field}\` holds a lone surrogate`);
  return value;
}

function checkAccount(account: unknown): GrantAccount {
  if (!isPlainObject(account)) refuse("`account` must be an object");
  checkKeys(account, ACCOUNT_KEYS, [], "grant payload `account`");
  return { id: checkAccountText(account["id"], "id"), name: checkAccountText(account["name"], "name") };
}

function checkConnection(connection: unknown): Record<string, string> {
  if (!isPlainObject(connection)) refuse("`connection` must be an object");
  const keys = Object.keys(connection);
  // Absent and empty would be two spellings of "no settings".
  if (keys.length === 0) refuse("`connection` must hold at least one setting (leave it out for none)");
  if (keys.length > MAX_CONNECTION_SETTINGS) refuse(`\`connection\` holds more than ${MAX_CONNECTION_SETTINGS} settings`);
  const settings: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const key of keys.sort()) {
    if (!CONNECTION_KEY.test(key)) refuse("`connection` has a key that is not [a-z][a-z0-9_]*, at most 40 characters");
    const value = connection[key];
    if (typeof value !== "string" || !CONNECTION_VALUE.test(value)) {
      refuse(`\`connection.${key}\` must be 1 to 63 characters of [A-Za-z0-9_-]`);
    }
    settings[key] = value;
  }
  return { ...settings };
}

function checkOps(ops: unknown): string[] {
  if (!Array.isArray(ops) || ops.length === 0) refuse("`ops` must be a non-empty array");
  const seen = new Set<string>();
  for (const op of ops) {
    if (!isOpId(op)) refuse("`ops` holds something that is not an op id");
    if (seen.has(op)) refuse("`ops` lists an op twice");
    seen.add(op);
  }
  return [...seen];
}

/**
 * The RFC 8785 canonical JSON of a checked grant, written field by field (keys
 * in code-unit order): what `canonicalJson` gives for it, at a fraction of the
 * cost. Every field but the token and the account was checked to hold only
 * characters JSON writes as they are, so only those go through `JSON.stringify`
 * (which escapes exactly as RFC 8785 does for text without lone surrogates).
 */
export function grantJson(grant: Grant): string {
  let json = `{"access":"${grant.access}",`;
  if (grant.account !== undefined) {
    json += `"account":{"id":${JSON.stringify(grant.account.id)},"name":${JSON.stringify(grant.account.name)}},`;
  }
  json += `"aud":"${grant.aud}",`;
  if (grant.connection !== undefined) {
    const settings = Object.keys(grant.connection)
      .sort()
      .map((key) => `"${key}":"${grant.connection?.[key] ?? ""}"`);
    json += `"connection":{${settings.join(",")}},`;
  }
  const expiresAt = grant.cred.expires_at === undefined ? "" : `"expires_at":${grant.cred.expires_at},`;
  json +=
    `"cred":{${expiresAt}"kind":"${grant.cred.kind}","token":${JSON.stringify(grant.cred.token)}},"exp":${grant.exp},` +
    `"gid":"${grant.gid}","iat":${grant.iat},"integration":"${grant.integration}",` +
    `"iss":"${grant.iss}","manifest_hash":"${grant.manifest_hash}"`;
  if (grant.ops !== undefined) json += `,"ops":["${grant.ops.join('","')}"]`;
  if (grant.policy !== undefined) json += `,"policy":${policyJson(grant.policy)}`;
  return `${json},"typ":"grant","v":1}`;
}
