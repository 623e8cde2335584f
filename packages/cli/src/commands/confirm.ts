import type { RunArgs } from "@eleven-integrations/schema";
import { argsDigest, confirmDetails, GrantError, ready, renderConfirm, signConfirmation, type ConfirmDetail } from "@eleven-integrations/grants";
import { UsageError, type CommandIo } from "../io.js";
import { readKeyFile } from "../key-file.js";
import { readPreviewArgument } from "../preview-input.js";
import { resolveRegistry } from "../resolve-registry.js";
import { escapeText } from "../terminal-text.js";

export interface ConfirmCommand {
  memberFile: string;
  gid: string;
  integration: string;
  op: string;
  args: RunArgs;
  expectDigest: string | undefined;
  dir: string | undefined;
  /** `@file` or `-`: the preview the bot's answer gave, for an op that declares one. */
  preview: string | undefined;
  /** Sign without asking (scripts); otherwise the member must answer yes on a terminal. */
  yes: boolean;
}

const FLAG_TEXT: Record<ConfirmDetail["flags"][number], string> = {
  not_in_line: "not in the line",
  shortened: "cut in the line",
  hidden_characters: "holds hidden characters",
  mixed_script: "mixes scripts: look-alike letters?",
  look_alike: "letters that look Latin but are not",
  template_look_alike: "quotes or brackets that could pass for the line's own (shown as U+FFFD in the line)",
};

function describeDetail(detail: ConfirmDetail): string {
  const notes = detail.flags.map((flag) => FLAG_TEXT[flag]);
  if (detail.scripts !== undefined) notes.push(detail.scripts.join(" + "));
  if (detail.hidden !== undefined) notes.push(`hidden: ${detail.hidden.join(" ")}`);
  if (detail.reads_as !== undefined) notes.push(`reads as: ${escapeText(detail.reads_as)}`);
  return `  ${detail.name} (${notes.join("; ")}):\n    ${escapeText(detail.value)}\n`;
}

/**
 * `integrations confirm`: shows the member the exact line the op's confirm
 * template renders for these args and every detail the line does not fully
 * show, asks, and signs the tap on that line for the grant `gid`. For an op
 * that declares a preview, `--preview` (what the sidecar read from the provider)
 * is shown under the line before it asks, and the tap covers both: the confirm
 * line, a line feed, and the preview.
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
  if (operation.preview !== undefined && command.preview === undefined) {
    throw new UsageError(
      `${command.integration} ${command.op} shows what it touches: pass --preview @file|- with the preview the bot's answer gave (the sidecar refuses a tap without it)`,
    );
  }
  if (operation.preview === undefined && command.preview !== undefined)
    throw new UsageError(`${command.integration} ${command.op} declares no preview; leave out --preview`);
  const preview = command.preview === undefined ? undefined : await readPreviewArgument(command.preview, io);
  const member = await readKeyFile(command.memberFile, "member");
  const confirmLine = renderConfirm(operation.confirm, command.args);
  const line = preview === undefined ? confirmLine : `${confirmLine}\n${preview}`;
  const details = confirmDetails(operation.confirm, command.args);
  io.stderr(`${command.integration} ${command.op} will run as:\n\n  ${escapeText(confirmLine)}\n\n`);
  if (preview !== undefined) io.stderr(`It touches, as the provider shows it now:\n\n  ${escapeText(preview)}\n\n`);
  if (details.length > 0) io.stderr(`Details the line does not fully show:\n${details.map(describeDetail).join("")}\n`);
  if (!command.yes) {
    const answer = io.ask === undefined ? undefined : await io.ask("Sign this confirmation? [y/N] ");
    if (answer === undefined) {
      io.stderr("nothing signed: confirm asks before it signs; run it in a terminal, or pass --yes in a script that showed the member this line\n");
      return 1;
    }
    if (!/^\s*y(es)?\s*$/i.test(answer)) {
      io.stderr("nothing signed\n");
      return 1;
    }
  }
  try {
    const token = signConfirmation({ member, grant: { gid: command.gid, iss: member.publicKey }, op: command.op, args: command.args, line });
    io.stdout(`${token}\n`);
    return 0;
  } catch (error) {
    if (GrantError.isInstance(error)) throw new UsageError(`${error.code}: ${error.message}`);
    throw error;
  }
}
