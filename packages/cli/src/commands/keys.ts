import { generateBotKeys, generateMemberKeys, generateReleaseKeys, ready } from "@eleven-integrations/grants";
import { UsageError, type CommandIo } from "../io.js";
import { writeKeyFile } from "../key-file.js";

const GENERATORS = { member: generateMemberKeys, bot: generateBotKeys, release: generateReleaseKeys } as const;

/**
 * `integrations keys member|bot|release --out <file>`: a new key pair in a 0600 file;
 * prints only the public key, which is what others need (a release key's public
 * key is what sidecars list in `registryKeys`).
 */
export async function keys(kind: string | undefined, out: string | undefined, io: CommandIo): Promise<number> {
  if (kind !== "member" && kind !== "bot" && kind !== "release") {
    throw new UsageError('keys needs "member" (Ed25519 signing), "bot" (X25519 box) or "release" (Ed25519, signs registry releases)');
  }
  if (out === undefined) throw new UsageError("keys needs --out <file>: the secret key is written only to a 0600 file");
  await ready();
  const pair = GENERATORS[kind]();
  await writeKeyFile(out, kind, pair);
  io.stdout(`${pair.publicKey}\n`);
  io.stderr(`wrote the ${kind} key pair to ${out} (mode 0600); the line above is its public key\n`);
  return 0;
}
