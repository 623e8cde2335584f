import type { RunArgs } from "@eleven-integrations/schema";
import type { CommandIo } from "../io.js";
import { oneStandardInput, readSecretArgument } from "../secret-input.js";
import { askOnce, connectForCommand } from "../sidecar-client.js";
import { escapeJson } from "../terminal-text.js";

export interface RunCommand {
  integration: string;
  op: string;
  args: RunArgs;
  /** `@file` or `-`, never the grant itself. */
  grant: string;
  /** `@file` or `-`, never the confirmation itself. */
  confirmation: string | undefined;
  /** `unix:/path` or `http://127.0.0.1:P`. */
  /** A `next_page` from an earlier answer: the sidecar runs the next page of the same op and args. */
  page?: string | undefined;
  sidecar: string;
  callerTokenFile: string;
}

/** `integrations run`: asks a sidecar to run one op and prints the envelope it answers, escaped for the terminal. */
export async function run(command: RunCommand, io: CommandIo): Promise<number> {
  oneStandardInput([command.grant, command.confirmation]);
  const grant = await readSecretArgument("grant", command.grant, io);
  const confirmation = command.confirmation === undefined ? undefined : await readSecretArgument("confirmation", command.confirmation, io);
  const client = await connectForCommand(command.sidecar, command.callerTokenFile);
  const body = {
    grant,
    op: command.op,
    args: command.args,
    ...(confirmation === undefined ? {} : { confirmation }),
    ...(command.page === undefined ? {} : { page: command.page }),
  };
  const answer = await askOnce(client, (sidecar) => sidecar.run(body), io);
  if (answer === undefined) return 1;
  io.stdout(`${escapeJson(answer)}\n`);
  if (answer.integration !== null && answer.integration !== command.integration) {
    io.stderr(`the grant is for ${escapeJson(answer.integration)}, not ${command.integration}\n`);
    return 1;
  }
  return answer.status === "ok" ? 0 : 1;
}
