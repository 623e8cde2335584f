const encoder = new TextEncoder();

/** Domain-separation context of a grant signature. */
export const GRANT_CONTEXT = encoder.encode("eleven.grant.v1");
/** Domain-separation context of a confirmation signature. */
export const CONFIRM_CONTEXT = encoder.encode("eleven.confirm.v1");

/**
 * The bytes a member signs: each part preceded by its length as a 4-byte
 * big-endian integer, so no two different part lists give the same bytes.
 */
export function signedMessage(parts: readonly Uint8Array[]): Uint8Array {
  let total = 0;
  for (const part of parts) total += 4 + part.length;
  const message = new Uint8Array(total);
  const view = new DataView(message.buffer);
  let offset = 0;
  for (const part of parts) {
    view.setUint32(offset, part.length, false);
    message.set(part, offset + 4);
    offset += 4 + part.length;
  }
  return message;
}

/** `a` followed by `b`. */
export function concatBytes(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}
