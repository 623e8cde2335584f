import { timingSafeEqual } from "node:crypto";
import { sha256Bytes } from "../audit/sha256.js";

const BEARER = /^Bearer +(\S+) *$/i;

function digest(text: string): Buffer {
  return sha256Bytes(text);
}

/**
 * A checker of `Authorization: Bearer <token>` against the caller token. Both
 * sides are hashed to 32 bytes first, so the comparison takes the same time
 * whatever the presented token's length or content.
 */
export function createCallerAuth(callerToken: string): (authorization: string | undefined) => boolean {
  if (callerToken.length === 0) throw new TypeError("callerToken must not be empty");
  const expected = digest(callerToken);
  return (authorization) => {
    const match = authorization === undefined ? null : BEARER.exec(authorization);
    // Hash something even for a missing header, so its absence does not answer faster.
    const presented = digest(match?.[1] ?? "");
    return timingSafeEqual(presented, expected) && match !== null;
  };
}
