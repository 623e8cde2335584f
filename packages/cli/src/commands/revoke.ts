import { GrantError, ready, signRevocation } from "@eleven-integrations/grants";
import { UsageError, type CommandIo } from "../io.js";
import { readKeyFile } from "../key-file.js";
import { readSecretArgument } from "../secret-input.js";

export interface RevokeCommand {
  memberFile: string;
  /** `@file` holding the sealed grant (`eg1.`), as `integrations grant` printed it; `-` (or `@-`) reads standard input. */
  grant: string;
}

/**
 * `integrations revoke --member <file> --grant @file`: the member who issued a
 * grant signs its revocation (`er1.`, printed on standard output). The bot
 * posts it to its sidecar (`POST /v1/revoke { revocation }`), and every sidecar
 * of the bot then refuses the grant until it expires.
 */
export async function revoke(command: RevokeCommand, io: CommandIo): Promise<number> {
  const grant = await readSecretArgument("grant", command.grant, io);
  if (!grant.startsWith("eg1."))
    throw new UsageError(`${command.grant === "-" || command.grant === "@-" ? "standard input" : command.grant.slice(1)} does not hold a grant (eg1...)`);
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
