import { decodeKey, generateReceiptKeys, type KeyPair } from "@eleven-integrations/grants";
import { createSecretFile, readOwnFile } from "./key-files.js";
import { SidecarStartError } from "./start-error.js";

function parseReceiptKeys(text: string, path: string): KeyPair {
  const invalid = () =>
    new SidecarStartError("invalid_file", `${path} must hold { "kind": "receipt", "publicKey", "secretKey" } (Ed25519, unpadded base64url)`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw invalid();
  }
  const { kind, publicKey, secretKey } = (parsed ?? {}) as Record<string, unknown>;
  if (kind !== "receipt" || typeof publicKey !== "string" || typeof secretKey !== "string") throw invalid();
  try {
    const publicBytes = decodeKey(publicKey, 32, "receipt public key");
    const secretBytes = decodeKey(secretKey, 64, "receipt secret key");
    // libsodium's Ed25519 secret key is the seed then the public key: the halves belong together exactly when they match.
    if (Buffer.compare(Buffer.from(secretBytes.subarray(32)), Buffer.from(publicBytes)) !== 0) throw invalid();
  } catch {
    throw new SidecarStartError("invalid_file", `${path} does not hold a matching Ed25519 receipt key pair`);
  }
  return { publicKey, secretKey };
}

/**
 * The sidecar's Ed25519 receipt key pair (it signs the receipts of writes) from
 * `path`, created on first start (mode 0600, `{ kind: "receipt", publicKey, secretKey }`)
 * and kept, so receipts signed before a restart verify with the same `receipt_key`.
 * Refused like the bot key file (any group or other bit, another owner, a link).
 * Needs `await ready()` from the grants package first.
 */
export async function loadOrCreateReceiptKeys(path: string): Promise<{ keys: KeyPair; created: boolean }> {
  const existing = await readOwnFile(path, 0o077, "the receipt key file");
  if (existing !== undefined) return { keys: parseReceiptKeys(existing, path), created: false };
  const keys = generateReceiptKeys();
  if (await createSecretFile(path, `${JSON.stringify({ kind: "receipt", ...keys }, null, 2)}\n`)) return { keys, created: true };
  return loadOrCreateReceiptKeys(path);
}
