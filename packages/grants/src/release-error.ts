import { markedError } from "@eleven-integrations/schema";

/** Every reason a signed registry release is refused by `verifyRelease`. */
export const RELEASE_ERROR_CODES = [
  /** Longer than the size limit, refused before it is parsed. */
  "too_large",
  /** Not JSON, or not exactly the release document's shape (a truncated file lands here). */
  "malformed",
  /** No signature by any of the trusted release keys. */
  "untrusted_key",
  /** A trusted key's signature that does not verify: the document was changed after signing. */
  "bad_signature",
] as const;

export type ReleaseErrorCode = (typeof RELEASE_ERROR_CODES)[number];

/** Thrown when a registry release is refused; the message names why, never a secret key. */
export class ReleaseError extends markedError("ReleaseError") {
  readonly code: ReleaseErrorCode;

  constructor(code: ReleaseErrorCode, message: string) {
    super(message);
    this.code = code;
  }
}
