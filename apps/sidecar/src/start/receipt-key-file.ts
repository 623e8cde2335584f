import { rename } from "node:fs/promises";
import { decodeKey, receiptKeysFor, type KeyPair } from "@eleven-integrations/grants";
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
 * The bot's Ed25519 receipt key pair (it signs the receipts of writes), derived
 * from the bot key (`receiptKeysFor`), so every sidecar of the bot signs with the
 * same key and verifies the receipts of the others. It is written to `path` on
 * first start (mode 0600, `{ kind: "receipt", publicKey, secretKey }`) for the
 * operator's backup. A file an earlier release made with a key of its own is kept
 * as `<path>.previous` (its receipts still verify with that key) and replaced.
 * Refused like the bot key file (any group or other bit, another owner, a link).
 * Needs `await ready()` from the grants package first.
 */
export async function loadOrCreateReceiptKeys(path: string, bot: KeyPair): Promise<{ keys: KeyPair; created: boolean; previous?: KeyPair }> {
  const keys = receiptKeysFor(bot);
  const existing = await readOwnFile(path, 0o077, "the receipt key file");
  if (existing !== undefined) {
    const held = parseReceiptKeys(existing, path);
    if (held.publicKey === keys.publicKey) return { keys, created: false };
    await rename(path, `${path}.previous`);
    const again = await loadOrCreateReceiptKeys(path, bot);
    return { ...again, previous: held };
  }
  if (await createSecretFile(path, `${JSON.stringify({ kind: "receipt", ...keys }, null, 2)}\n`)) return { keys, created: true };
  return loadOrCreateReceiptKeys(path, bot);
}
