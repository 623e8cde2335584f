import { generateBotKeys, generateMemberKeys, ready } from "@eleven-integrations/grants";
import { UsageError, type CommandIo } from "../io.js";
import { writeKeyFile, type KeyKind } from "../key-file.js";

/**
 * `integrations keys member|bot --out <file>`: a new key pair in a 0600 file; prints
 * only the public key, which is what others need.
 */
export async function keys(kind: string | undefined, out: string | undefined, io: CommandIo): Promise<number> {
  if (kind !== "member" && kind !== "bot") throw new UsageError('keys needs "member" (Ed25519 signing) or "bot" (X25519 box)');
  if (out === undefined) throw new UsageError("keys needs --out <file>: the secret key is written only to a 0600 file");
  await ready();
  const pair = (kind as KeyKind) === "member" ? generateMemberKeys() : generateBotKeys();
  await writeKeyFile(out, kind, pair);
  io.stdout(`${pair.publicKey}\n`);
  io.stderr(`wrote the ${kind} key pair to ${out} (mode 0600); the line above is its public key\n`);
  return 0;
}
