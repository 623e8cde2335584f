import { readFile } from "node:fs/promises";
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { SidecarClientError } from "./sidecar-client-error.js";

/** The file names a sidecar keeps in its home folder (mode 0700, every file 0600). */
export const SIDECAR_HOME_FILES = {
  /** The caller bearer token: whoever reads it may call the sidecar. */
  callerToken: "caller-token",
  /** The Unix socket the sidecar listens on by default. */
  socket: "sidecar.sock",
  /** The bot's X25519 box key pair, `{ kind: "bot", publicKey, secretKey }`. */
  botKey: "bot-key.json",
  /** The sidecar's Ed25519 receipt key pair: it signs the receipts of writes. */
  receiptKey: "receipt-key.json",
  /** JSON array of the trusted members' Ed25519 public keys. */
  trustedMembers: "trusted-members.json",
  /** One JSON line per run, chained by the hash of the line before. */
  audit: "audit.log",
  /** Confirmations consumed and not yet expired. */
  replay: "replay.log",
  /** Grants their members revoked, until they expire (without Redis). */
  revocations: "revocations.log",
  /** The last good signed registry release (when following a broker), run at the next start if the broker is unreachable. */
  registryCache: "registry-release.json",
} as const;

export type SidecarHomeFile = keyof typeof SIDECAR_HOME_FILES;

/** Every file of a home folder, as absolute paths. */
export type SidecarHomePaths = { home: string } & { [name in SidecarHomeFile]: string };

/** The folder name under the user's home when `SIDECAR_HOME` is not set. */
export const DEFAULT_SIDECAR_HOME_NAME = ".eleven-sidecar";

/** The sidecar's home: `$SIDECAR_HOME`, else `~/.eleven-sidecar`. */
export function sidecarHome(env: Readonly<Record<string, string | undefined>> = process.env): string {
  const home = env["SIDECAR_HOME"];
  return resolve(home !== undefined && home !== "" ? home : join(homedir(), DEFAULT_SIDECAR_HOME_NAME));
}

/** The paths of a home folder's files (`sidecarHomePaths(sidecarHome())`). */
export function sidecarHomePaths(home: string): SidecarHomePaths {
  const dir = resolve(home);
  const paths = { home: dir } as SidecarHomePaths;
  for (const [name, file] of Object.entries(SIDECAR_HOME_FILES)) paths[name as SidecarHomeFile] = join(dir, file);
  return paths;
}

/** Reads a caller token file; the error names the file and the system's code, never its content. */
export async function readCallerToken(file: string): Promise<string> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    throw new SidecarClientError("caller_token_unreadable", `cannot read the caller token file ${file}: ${(error as NodeJS.ErrnoException).code ?? "error"}`);
  }
  const token = text.trim();
  if (token === "") throw new SidecarClientError("caller_token_unreadable", `the caller token file ${file} is empty`);
  return token;
}
