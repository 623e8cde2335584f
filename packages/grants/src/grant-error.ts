const MARKER = Symbol.for("eleven-integrations.error.GrantError");

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
 * Thrown when a grant, confirmation, key or sealed value is refused. The message
 * names what was wrong, never a token, a key or a payload.
 */
export class GrantError extends Error {
  readonly code: GrantErrorCode;
  private readonly [MARKER] = true;

  constructor(code: GrantErrorCode, message: string) {
    super(message);
    this.name = "GrantError";
    this.code = code;
  }

  /** True for a GrantError from any installed copy of this package. */
  static isInstance(value: unknown): value is GrantError {
    return typeof value === "object" && value !== null && MARKER in value;
  }
}
