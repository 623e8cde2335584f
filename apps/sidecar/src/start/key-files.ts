import { randomBytes } from "node:crypto";
import { constants } from "node:fs";
import { chmod, chown, open, writeFile, type FileHandle } from "node:fs/promises";
import { decodeKey, generateBotKeys, openSealed, sealToPublicKey, toBase64Url, type KeyPair } from "@eleven-integrations/grants";
import { SidecarStartError } from "./start-error.js";

const SECRET_MODE = 0o600;
const CALLER_TOKEN = /^[\x21-\x7e]{16,1024}$/;

/** Reads a file, checking the opened file itself (not the path) so a swap between check and read changes nothing. */
export async function readOwnFile(
  path: string,
  refusedModeBits: number,
  what: string,
  /** A group that may read the file too (mode 0640 with this gid): the callers' group, for the caller token alone. */
  readerGroup?: number,
): Promise<string | undefined> {
  let handle: FileHandle;
  try {
    // Never through a symlink planted in the home folder (O_NOFOLLOW: ELOOP).
    handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return undefined;
    if (code === "ELOOP") throw new SidecarStartError("not_a_file", `${what} ${path} is a symbolic link; the sidecar never follows one`);
    throw error;
  }
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) throw new SidecarStartError("not_a_file", `${what} ${path} is not a regular file`);
    const groupMayRead = readerGroup !== undefined && stats.gid === readerGroup ? 0o040 : 0;
    if ((stats.mode & refusedModeBits & ~groupMayRead) !== 0) {
      const access = refusedModeBits === 0o077 ? "readable or writable by group or others" : "writable by group or others";
      throw new SidecarStartError("insecure_file", `${what} ${path} is ${access}; run chmod 600 ${path}`);
    }
    if (typeof process.getuid === "function" && stats.uid !== process.getuid()) {
      throw new SidecarStartError("wrong_owner", `${what} ${path} belongs to another user`);
    }
    return await handle.readFile("utf8");
  } finally {
    await handle.close();
  }
}

/**
 * Gives `group` the access `mode` grants (the socket 0660, the caller token 0640): the
 * group first, while the mode still shuts it out, then the mode. The sidecar's user must
 * be in the group (systemd: `Group=`), or the kernel refuses (EPERM).
 */
export async function shareWithGroup(path: string, group: number, mode: number): Promise<void> {
  try {
    await chown(path, -1, group);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new SidecarStartError(
      "invalid_setting",
      `cannot give ${path} to the caller group ${group} (${code ?? "error"}); the sidecar's user must be in that group`,
    );
  }
  await chmod(path, mode);
}

/** Creates a 0600 file, never replacing one; false when another process created it first. */
export async function createSecretFile(path: string, text: string): Promise<boolean> {
  try {
    await writeFile(path, text, { mode: SECRET_MODE, flag: "wx" });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  }
}

/** Parses and checks a bot key file: `{ kind: "bot", publicKey, secretKey }`, the two halves of one X25519 pair. */
function parseBotKeys(text: string, path: string): KeyPair {
  const invalid = () => new SidecarStartError("invalid_file", `${path} is not a bot key file ({ "kind": "bot", "publicKey", "secretKey" })`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw invalid();
  }
  if (typeof parsed !== "object" || parsed === null) throw invalid();
  const { kind, publicKey, secretKey } = parsed as Record<string, unknown>;
  if (kind !== "bot" || typeof publicKey !== "string" || typeof secretKey !== "string") throw invalid();
  const keys = { publicKey, secretKey };
  try {
    decodeKey(publicKey, 32, "bot public key");
    decodeKey(secretKey, 32, "bot secret key");
    // The halves belong together exactly when the secret key opens what is sealed to the public one.
    openSealed(sealToPublicKey("eleven-sidecar key check", publicKey), keys);
  } catch {
    throw new SidecarStartError("invalid_file", `${path} does not hold a matching X25519 key pair`);
  }
  return keys;
}

/**
 * The bot's box key pair from `path`, created (mode 0600, `kind: "bot"`, the
 * format of `integrations keys bot`) when the file does not exist. Refuses a
 * file group or others can access, or that another user owns.
 * Needs `await ready()` from the grants package first.
 */
export async function loadOrCreateBotKeys(path: string): Promise<{ keys: KeyPair; created: boolean }> {
  const existing = await readOwnFile(path, 0o077, "the bot key file");
  if (existing !== undefined) return { keys: parseBotKeys(existing, path), created: false };
  const keys = generateBotKeys();
  if (await createSecretFile(path, `${JSON.stringify({ kind: "bot", ...keys }, null, 2)}\n`)) return { keys, created: true };
  return loadOrCreateBotKeys(path);
}

/**
 * The caller token from `path` (surrounding whitespace ignored: 16 to 1024
 * visible ASCII characters), created as 32 random bytes in unpadded base64url
 * (mode 0600) when the file does not exist. Refused like the bot key file.
 */
export async function loadOrCreateCallerToken(path: string, callerGroup?: number): Promise<{ token: string; created: boolean }> {
  const existing = await readOwnFile(path, 0o077, "the caller token file", callerGroup);
  if (existing !== undefined) {
    const token = existing.trim();
    if (!CALLER_TOKEN.test(token)) {
      throw new SidecarStartError("invalid_file", `${path} must hold one token of 16 to 1024 visible ASCII characters`);
    }
    // A token written before the group was set is handed to the group too.
    if (callerGroup !== undefined) await shareWithGroup(path, callerGroup, 0o640);
    return { token, created: false };
  }
  const token = toBase64Url(randomBytes(32));
  if (await createSecretFile(path, `${token}\n`)) {
    if (callerGroup !== undefined) await shareWithGroup(path, callerGroup, 0o640);
    return { token, created: true };
  }
  return loadOrCreateCallerToken(path, callerGroup);
}

/**
 * The trusted members' Ed25519 public keys: a JSON array of unpadded base64url
 * keys. A missing file trusts no one (every grant is then refused). The file
 * is not secret, but whoever can write it can make the bot trust them, so it is
 * refused when group or others can write it.
 */
export async function loadTrustedMembers(path: string): Promise<string[] | undefined> {
  const text = await readOwnFile(path, 0o022, "the trusted members file");
  if (text === undefined) return undefined;
  const invalid = (detail: string) => new SidecarStartError("invalid_file", `${path} must be a JSON array of member public keys: ${detail}`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw invalid("it is not JSON");
  }
  if (!Array.isArray(parsed)) throw invalid("it is not an array");
  return parsed.map((key: unknown, index) => {
    try {
      if (typeof key !== "string") throw new TypeError("not a string");
      decodeKey(key, 32, "member public key");
      return key;
    } catch {
      throw invalid(`entry ${index} is not a 32-byte key in unpadded base64url`);
    }
  });
}
