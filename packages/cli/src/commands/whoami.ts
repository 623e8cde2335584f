import type { CommandIo } from "../io.js";
import { readSecretArgument } from "../secret-input.js";
import { askOnce, connectForCommand } from "../sidecar-client.js";
import { escapeJson, escapeText } from "../terminal-text.js";

export interface WhoamiCommand {
  /** `@file` or `-`, never the grant itself. */
  grant: string;
  sidecar: string;
  callerTokenFile: string;
}

/**
 * `integrations whoami`: asks the sidecar which account the grant's credential
 * acts as (it runs the integration's identity op now); prints the answer as JSON
 * on standard output and `<integration>: <name> (<id>)` on standard error.
 */
export async function whoami(command: WhoamiCommand, io: CommandIo): Promise<number> {
  const grant = await readSecretArgument("grant", command.grant, io);
  const client = await connectForCommand(command.sidecar, command.callerTokenFile);
  const answer = await askOnce(client, (sidecar) => sidecar.whoami({ grant }), io);
  if (answer === undefined) return 1;
  io.stdout(`${escapeJson(answer)}\n`);
  if (answer.status !== "ok") return 1;
  io.stderr(`${escapeText(answer.integration)}: ${escapeText(answer.account.name)} (${escapeText(answer.account.id)})\n`);
  return 0;
}
