import crypto from "node:crypto";

type Encoding = "hex" | "base64";

// `crypto.hash` (Node 20.12 and later) digests a string in one call, several times faster than
// `createHash().update().digest()` for the short texts hashed on every request; older Node 20s use the latter.
const oneShot = (crypto as { hash?: (algorithm: string, data: string | Buffer, encoding: string) => string | Buffer }).hash;

/** SHA-256 of `data` (a string as UTF-8), as raw bytes. */
export function sha256Bytes(data: string | Buffer): Buffer {
  if (oneShot !== undefined) return oneShot("sha256", data, "buffer") as Buffer;
  return crypto.createHash("sha256").update(data).digest();
}

/** SHA-256 of `data` (a string as UTF-8), as `hex` or `base64` text. */
export function sha256Text(data: string | Buffer, encoding: Encoding): string {
  if (oneShot !== undefined) return oneShot("sha256", data, encoding) as string;
  return crypto.createHash("sha256").update(data).digest(encoding);
}
