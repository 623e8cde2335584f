import { isBase64UrlOf } from "./base64url.js";
import { GrantError } from "./grant-error.js";
import { checkKeys, isPlainObject } from "./strict-json.js";

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
  /** The member's credential for the integration. */
  cred: { kind: "pat" | "oauth"; token: string };
  /** Issued at, Unix seconds. */
  iat: number;
  /** Expires at, Unix seconds; at most an hour after `iat`. */
  exp: number;
}

const REQUIRED = ["v", "typ", "gid", "iss", "aud", "integration", "manifest_hash", "access", "cred", "iat", "exp"];
const OPTIONAL = ["ops"];
const CRED_KEYS = ["kind", "token"];

export const INTEGRATION_ID = /^[a-z][a-z0-9-]{0,39}$/;
export const OP_ID = /^[a-z][a-z0-9_]*\.[a-z][a-z0-9_]*$/;
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
  const { v, typ, gid, iss, aud, integration, manifest_hash, access, ops, cred, iat, exp } = object;
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
  checkKeys(cred, CRED_KEYS, [], "grant payload `cred`");
  const { kind, token } = cred;
  if (kind !== "pat" && kind !== "oauth") refuse('`cred.kind` must be "pat" or "oauth"');
  if (typeof token !== "string" || !TOKEN.test(token)) refuse("`cred.token` must be non-empty visible ASCII");

  const grant: Grant = { v, typ, gid, iss, aud, integration, manifest_hash, access, cred: { kind, token }, iat, exp };
  if (ops !== undefined) grant.ops = checkOps(ops);
  return grant;
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
 * cost. Every field but the token was checked to hold only characters JSON
 * writes as they are, so only the token goes through `JSON.stringify`.
 */
export function grantJson(grant: Grant): string {
  let json =
    `{"access":"${grant.access}","aud":"${grant.aud}",` +
    `"cred":{"kind":"${grant.cred.kind}","token":${JSON.stringify(grant.cred.token)}},"exp":${grant.exp},` +
    `"gid":"${grant.gid}","iat":${grant.iat},"integration":"${grant.integration}",` +
    `"iss":"${grant.iss}","manifest_hash":"${grant.manifest_hash}"`;
  if (grant.ops !== undefined) json += `,"ops":["${grant.ops.join('","')}"]`;
  return `${json},"typ":"grant","v":1}`;
}
