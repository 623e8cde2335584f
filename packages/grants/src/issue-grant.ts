import { connectionProblems, type TenantAuth } from "@eleven-integrations/schema";
import { decodeKey, toBase64Url } from "./base64url.js";
import { GrantError } from "./grant-error.js";
import { checkGrantPayload, grantJson, isUnixSeconds, type Grant } from "./grant-payload.js";
import type { GrantPolicy } from "./grant-policy.js";
import { memberSigningKey, type KeyPair } from "./keys.js";
import { MAX_GRANT_LENGTH, MAX_GRANT_TTL_SECONDS, unixNow } from "./limits.js";
import { concatBytes, GRANT_CONTEXT, signedMessage } from "./signed-message.js";
import { lib } from "./sodium.js";
import { utf8 } from "./text-bytes.js";

/** Prefix of every grant token. */
export const GRANT_PREFIX = "eg1.";

export interface IssueGrantInput {
  /** The member's Ed25519 signing keys; the grant is signed with the secret half. */
  member: KeyPair;
  /** The bot's X25519 public key: only that bot can open the grant, and the grant names it. */
  botPublicKey: string;
  integration: string;
  /** Lowercase hex hash of the manifest the member was shown (`registry.manifestHash(id)`). */
  manifestHash: string;
  /** `read` grants can never run a `write` op. */
  access: "read" | "write";
  /** Restricts the grant to these ops; leave out to allow every op the access permits. */
  ops?: string[];
  /**
   * The member's token: it travels sealed to the bot and is never readable by
   * anyone else. `expires_at` (Unix seconds, from the bundle's `expires_in`) lets
   * the sidecar refuse an expired token before sending it (`credentialExpired`).
   */
  credential: { kind: "pat" | "oauth"; token: string; expires_at?: number };
  /** The account the credential acts as (the bundle's `account`, or `--account <id:name>`); shown to the member and the bot. */
  account?: { id: string; name: string };
  /**
   * The connection's tenant settings (`{ subdomain: "acme" }`, `{ account_sid: "AC…" }`):
   * keys `[a-z][a-z0-9_]*`, at most 8. Signed with the rest, so the bot cannot change
   * them. Each value follows the manifest's own tenant pattern when `auth` is given;
   * without it, only a lowercase DNS label's characters (`[a-z0-9-]`, valid wherever a
   * setting stands) are issued.
   */
  connection?: Record<string, string>;
  /**
   * The manifest's `auth` (`base` and `tenant`): `connection` is checked against it
   * (`connectionProblems`: every setting `base` names, none other, each value in its
   * place's rule and the declared pattern), so a value the sidecar would refuse is never issued.
   */
  auth?: TenantAuth;
  /**
   * The member's policy, signed with the grant: presets by class (`read`, `write`,
   * `destructive`) and per-op rules, each `"allow" | "ask" | "block"` (see
   * `decideByPolicy`). Leave out for the defaults (reads allow, writes ask).
   */
  policy?: GrantPolicy;
  /** Life of the grant in seconds, 1 to 3600; longer is refused (`ttl_too_long`), never clamped. */
  ttlSeconds: number;
  /** Unix seconds; defaults to the clock. */
  now?: number;
}

function credentialDraft(credential: IssueGrantInput["credential"] | undefined): Record<string, unknown> {
  const draft: Record<string, unknown> = { kind: credential?.kind, token: credential?.token };
  if (credential?.expires_at !== undefined) draft["expires_at"] = credential.expires_at;
  return draft;
}

/** The signature and canonical payload bytes of a grant, before sealing. */
export function signGrantPayload(grant: Grant, memberSecretKey: Uint8Array): { signature: Uint8Array; payload: Uint8Array } {
  const payload = utf8(grantJson(grant));
  const audience = decodeKey(grant.aud, 32, "bot public key");
  const signature = lib().crypto_sign_detached(signedMessage([GRANT_CONTEXT, audience, payload]), memberSecretKey);
  return { signature, payload };
}

/**
 * Issues a grant (`eg1.<b64url>`): the member signs the payload, then seals the
 * signature and payload to the bot's box key, so only that bot reads the
 * credential and any other bot refuses it. Throws `GrantError` (`malformed` for
 * bad input, `ttl_too_long` for `ttlSeconds` over 3600).
 */
export function issueGrant(input: IssueGrantInput): string {
  const sodium = lib();
  const { ttlSeconds } = input;
  if (typeof ttlSeconds !== "number" || !Number.isSafeInteger(ttlSeconds) || ttlSeconds < 1) {
    throw new GrantError("malformed", "ttlSeconds must be a positive whole number of seconds");
  }
  if (ttlSeconds > MAX_GRANT_TTL_SECONDS) {
    throw new GrantError("ttl_too_long", `ttlSeconds is over ${MAX_GRANT_TTL_SECONDS}`);
  }
  const now = input.now ?? unixNow();
  if (!isUnixSeconds(now)) throw new GrantError("malformed", "now must be Unix seconds");
  const member = memberSigningKey(input.member);
  const botPublicKey = decodeKey(input.botPublicKey, 32, "bot public key");

  const draft: Record<string, unknown> = {
    v: 1,
    typ: "grant",
    gid: toBase64Url(sodium.randombytes_buf(16)),
    iss: input.member.publicKey,
    aud: input.botPublicKey,
    integration: input.integration,
    manifest_hash: input.manifestHash,
    access: input.access,
    cred: credentialDraft(input.credential),
    iat: now,
    exp: now + ttlSeconds,
  };
  if (input.ops !== undefined) draft["ops"] = input.ops;
  if (input.account !== undefined) draft["account"] = { ...input.account };
  if (input.connection !== undefined) draft["connection"] = { ...input.connection };
  if (input.policy !== undefined) draft["policy"] = input.policy;
  const grant = checkGrantPayload(draft);
  checkIssuedConnection(grant.connection, input.auth);

  const { signature, payload } = signGrantPayload(grant, member.secretKey);
  const token = GRANT_PREFIX + toBase64Url(sodium.crypto_box_seal(concatBytes(signature, payload), botPublicKey));
  if (token.length > MAX_GRANT_LENGTH) throw new GrantError("malformed", `the grant would be over ${MAX_GRANT_LENGTH} characters`);
  return token;
}

/** Without the manifest's auth, a value's place is unknown: only what is valid in a host and a path alike is issued. */
const PLACE_FREE_VALUE = /^[a-z0-9-]{1,63}$/;

function checkIssuedConnection(connection: Record<string, string> | undefined, auth: TenantAuth | undefined): void {
  if (auth !== undefined) {
    const first = connectionProblems(auth, connection)[0];
    if (first !== undefined) throw new GrantError("malformed", `\`connection.${first.setting}\` ${first.message}`);
    return;
  }
  for (const [key, value] of Object.entries(connection ?? {})) {
    if (!PLACE_FREE_VALUE.test(value)) {
      throw new GrantError(
        "malformed",
        `\`connection.${key}\` must be 1 to 63 characters of [a-z0-9-] unless the manifest's auth is given (its own tenant pattern then)`,
      );
    }
  }
}
