import type { CommandIo } from "../io.js";
import { UsageError } from "../io.js";
import { readSecretArgument } from "../secret-input.js";
import { SidecarClientError } from "@eleven-integrations/sidecar-protocol";
import { connectSidecar } from "../sidecar-client.js";
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
  let client;
  try {
    client = await connectSidecar(command.sidecar, command.callerTokenFile);
  } catch (error) {
    if (SidecarClientError.isInstance(error)) throw new UsageError(error.message);
    throw error;
  }
  let answer;
  try {
    answer = await client.whoami({ grant });
  } catch (error) {
    if (!SidecarClientError.isInstance(error)) throw error;
    io.stderr(`${escapeText(error.message)}\n`);
    return 1;
  } finally {
    await client.close();
  }
  io.stdout(`${escapeJson(answer)}\n`);
  if (answer.status !== "ok") return 1;
  io.stderr(`${escapeText(answer.integration)}: ${escapeText(answer.account.name)} (${escapeText(answer.account.id)})\n`);
  return 0;
}
