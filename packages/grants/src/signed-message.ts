import { utf8 } from "./text-bytes.js";

/** Domain-separation context of a grant signature. */
export const GRANT_CONTEXT = utf8("eleven.grant.v1");
/** Domain-separation context of a standing approval signature. */
export const APPROVAL_CONTEXT = utf8("eleven.approval.v1");
/** Domain-separation context of an event subscription signature. */
export const SUBSCRIPTION_CONTEXT = utf8("eleven.subscription.v1");
/** Domain-separation context of a confirmation signature. */
export const CONFIRM_CONTEXT = utf8("eleven.confirm.v1");
/** Domain-separation context of a revocation signature. */
export const REVOKE_CONTEXT = utf8("eleven.revoke.v1");
/** Domain-separation context of a sidecar's receipt signature. */
export const RECEIPT_CONTEXT = utf8("eleven.receipt.v1");

/**
 * The bytes a member signs: each part preceded by its length as a 4-byte
 * big-endian integer, so no two different part lists give the same bytes.
 */
export function signedMessage(parts: readonly Uint8Array[]): Uint8Array {
  let total = 0;
  for (const part of parts) total += 4 + part.length;
  return writeParts(new Uint8Array(total), parts, total);
}

function writeParts(message: Uint8Array, parts: readonly Uint8Array[], total: number): Uint8Array {
  let offset = 0;
  for (const part of parts) {
    const length = part.length;
    message[offset] = length >>> 24;
    message[offset + 1] = (length >>> 16) & 255;
    message[offset + 2] = (length >>> 8) & 255;
    message[offset + 3] = length & 255;
    message.set(part, offset + 4);
    offset += 4 + length;
  }
  return message.subarray(0, total);
}

let scratch = new Uint8Array(4096);

/**
 * `signedMessage(parts)` in a buffer the next call reuses: for a message handed
 * straight to libsodium (which copies it) and not kept, so verifying allocates
 * nothing. Never for a secret: it stays in the buffer until overwritten.
 */
export function transientSignedMessage(parts: readonly Uint8Array[]): Uint8Array {
  let total = 0;
  for (const part of parts) total += 4 + part.length;
  if (scratch.length < total) scratch = new Uint8Array(Math.max(total, scratch.length * 2));
  return writeParts(scratch, parts, total);
}

/** `a` followed by `b`. */
export function concatBytes(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}
