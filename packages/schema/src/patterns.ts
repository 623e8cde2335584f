/** An op id: `namespace.verb`, lowercase letters, digits and `_`, each part starting with a letter. */
export const OP_ID_PATTERN = /^[a-z][a-z0-9_]*\.[a-z][a-z0-9_]*$/;

/**
 * A 32-byte key (Ed25519 or X25519 public key, a state key) as unpadded base64url:
 * 43 characters whose last one carries only 4 bits, so each key has one spelling.
 */
export const KEY_PATTERN = /^[A-Za-z0-9_-]{42}[AEIMQUYcgkosw048]$/;

/** An OAuth scope token (RFC 6749 §3.3): printable ASCII without space, `"` and `\`. */
export const SCOPE_TOKEN = /^[\x21\x23-\x5b\x5d-\x7e]+$/;
