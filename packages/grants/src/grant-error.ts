import { markedError } from "@eleven-integrations/schema";

/** Every reason a grant, confirmation or sealed value is refused. */
export const GRANT_ERROR_CODES = [
  "malformed",
  "not_for_this_bot",
  "bad_signature",
  "untrusted_member",
  "expired",
  "not_yet_valid",
  "ttl_too_long",
  "replayed",
  "mismatch",
] as const;

export type GrantErrorCode = (typeof GRANT_ERROR_CODES)[number];

/**
 * What an `expired` refusal may say about the grant: the signed payload without
 * the credential. It is there only once the signature verified, so it is what
 * the member granted, and tells a bot which integration to ask a fresh grant for.
 */
export interface ExpiredGrantSummary {
  gid: string;
  iss: string;
  integration: string;
  manifest_hash: string;
  access: "read" | "write";
  ops?: string[];
  iat: number;
  exp: number;
}

/**
 * Thrown when a grant, confirmation, key or sealed value is refused. The message
 * names what was wrong, never a token, a key or a payload.
 */
export class GrantError extends markedError("GrantError") {
  readonly code: GrantErrorCode;
  /** On an `expired` grant only: the verified payload without its credential. */
  readonly grant?: ExpiredGrantSummary;

  constructor(code: GrantErrorCode, message: string, grant?: ExpiredGrantSummary) {
    super(message);
    this.code = code;
    if (grant !== undefined) this.grant = grant;
  }
}

/** The credential-free part of a grant, for an `expired` refusal. */
export function expiredGrantSummary(grant: {
  gid: string;
  iss: string;
  integration: string;
  manifest_hash: string;
  access: "read" | "write";
  ops?: string[];
  iat: number;
  exp: number;
}): ExpiredGrantSummary {
  const summary: ExpiredGrantSummary = {
    gid: grant.gid,
    iss: grant.iss,
    integration: grant.integration,
    manifest_hash: grant.manifest_hash,
    access: grant.access,
    iat: grant.iat,
    exp: grant.exp,
  };
  if (grant.ops !== undefined) summary.ops = [...grant.ops];
  return summary;
}
