import { argsDigest, GrantError, ready, renderConfirm, signConfirmation } from "@eleven-integrations/grants";
import { UsageError, type CommandIo } from "../io.js";
import { readKeyFile } from "../key-file.js";
import { resolveRegistry } from "../resolve-registry.js";

export interface ConfirmCommand {
  memberFile: string;
  gid: string;
  integration: string;
  op: string;
  args: Record<string, string>;
  expectDigest: string | undefined;
  dir: string | undefined;
}

/**
 * `integrations confirm`: shows the member the exact line the op's confirm template
 * renders for these args, and signs the tap on it for the grant `gid`.
 */
export async function confirm(command: ConfirmCommand, io: CommandIo): Promise<number> {
  const registry = await resolveRegistry(command.dir, io.cwd);
  const operation = registry.operation(command.integration, command.op);
  if (operation === undefined) throw new UsageError(`unknown op "${command.integration} ${command.op}"`);
  if (operation.confirm === undefined) throw new UsageError(`"${command.op}" is a read; it needs no confirmation`);
  await ready();
  if (command.expectDigest !== undefined && argsDigest(command.args) !== command.expectDigest) {
    io.stderr("these args are not the ones the bot asked to run (args_digest differs); nothing signed\n");
    return 1;
  }
  const member = await readKeyFile(command.memberFile, "member");
  const line = renderConfirm(operation.confirm, command.args);
  try {
    const token = signConfirmation({ member, grant: { gid: command.gid, iss: member.publicKey }, op: command.op, args: command.args, line });
    io.stderr(`confirming: ${line}\n`);
    io.stdout(`${token}\n`);
    return 0;
  } catch (error) {
    if (GrantError.isInstance(error)) throw new UsageError(`${error.code}: ${error.message}`);
    throw error;
  }
}
