import type { CommandIo } from "../io.js";
import { UsageError } from "../io.js";
import { oneStandardInput, readSecretArgument } from "../secret-input.js";
import { SidecarClientError } from "@eleven-integrations/sidecar-protocol";
import { connectSidecar } from "../sidecar-client.js";
import { escapeJson, escapeText } from "../terminal-text.js";

export interface RunCommand {
  integration: string;
  op: string;
  args: Record<string, string>;
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
  let client;
  try {
    client = await connectSidecar(command.sidecar, command.callerTokenFile);
  } catch (error) {
    if (SidecarClientError.isInstance(error)) throw new UsageError(error.message);
    throw error;
  }
  const body = {
    grant,
    op: command.op,
    args: command.args,
    ...(confirmation === undefined ? {} : { confirmation }),
    ...(command.page === undefined ? {} : { page: command.page }),
  };
  let answer;
  try {
    answer = await client.run(body);
  } catch (error) {
    if (!SidecarClientError.isInstance(error)) throw error;
    io.stderr(`${escapeText(error.message)}\n`);
    return 1;
  } finally {
    await client.close();
  }
  io.stdout(`${escapeJson(answer)}\n`);
  if (answer.integration !== null && answer.integration !== command.integration) {
    io.stderr(`the grant is for ${escapeJson(answer.integration)}, not ${command.integration}\n`);
    return 1;
  }
  return answer.status === "ok" ? 0 : 1;
}
