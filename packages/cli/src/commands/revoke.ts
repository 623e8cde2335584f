import { readFile } from "node:fs/promises";
import { GrantError, ready, signRevocation } from "@eleven-integrations/grants";
import { UsageError, type CommandIo } from "../io.js";
import { readKeyFile } from "../key-file.js";

export interface RevokeCommand {
  memberFile: string;
  /** `@file` holding the sealed grant (`eg1.`), as `integrations grant` printed it; `@-` reads standard input. */
  grant: string;
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/**
 * `integrations revoke --member <file> --grant @file`: the member who issued a
 * grant signs its revocation (`er1.`, printed on standard output). The bot
 * posts it to its sidecar (`POST /v1/revoke { revocation }`), and every sidecar
 * of the bot then refuses the grant until it expires.
 */
export async function revoke(command: RevokeCommand, io: CommandIo): Promise<number> {
  if (!command.grant.startsWith("@") || command.grant.length < 2) {
    throw new UsageError("--grant takes @file (or @- for standard input): a grant is never passed as an argument");
  }
  const source = command.grant.slice(1);
  let text: string;
  try {
    text = source === "-" ? await readStdin() : await readFile(source, "utf8");
  } catch {
    throw new UsageError(`cannot read the grant from ${source}`);
  }
  const grant = text.trim();
  if (!grant.startsWith("eg1.")) throw new UsageError(`${source} does not hold a grant (eg1...)`);
  await ready();
  const member = await readKeyFile(command.memberFile, "member");
  try {
    const token = signRevocation({ member, grant });
    io.stdout(`${token}\n`);
    io.stderr("revocation signed: send it to the bot's sidecar (POST /v1/revoke { revocation }); every sidecar of the bot then refuses the grant\n");
    return 0;
  } catch (error) {
    if (GrantError.isInstance(error)) throw new UsageError(`${error.code}: ${error.message}`);
    throw error;
  }
}
