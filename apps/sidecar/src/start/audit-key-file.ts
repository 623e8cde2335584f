import { randomBytes } from "node:crypto";
import { decodeKey, toBase64Url } from "@eleven-integrations/grants";
import { createSecretFile, readOwnFile } from "./key-files.js";
import { SidecarStartError } from "./start-error.js";

/**
 * The key of the audit lines' `args_digest` (keyed BLAKE2b-256, `keyedArgsDigest`):
 * 32 random bytes in unpadded base64url, one line, created (0600) on first start
 * and kept, so a run's digest is the same before and after a restart while whoever
 * reads only the audit file cannot confirm a guess of the args (review finding 13).
 * Refused like the bot key file (any group or other bit, another owner, a link).
 */
export async function loadOrCreateAuditKey(path: string): Promise<{ key: string; created: boolean }> {
  const existing = await readOwnFile(path, 0o077, "the audit key file");
  if (existing !== undefined) {
    const key = existing.trim();
    try {
      decodeKey(key, 32, "audit digest key");
    } catch {
      throw new SidecarStartError("invalid_file", `${path} must hold one 32-byte key in unpadded base64url`);
    }
    return { key, created: false };
  }
  const key = toBase64Url(randomBytes(32));
  if (await createSecretFile(path, `${key}\n`)) return { key, created: true };
  return loadOrCreateAuditKey(path);
}
