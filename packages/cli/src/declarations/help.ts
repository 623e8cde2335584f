import { AUDIENCES, COMMANDS } from "./commands.js";
import { isSwitch, type CommandDeclaration, type FlagDeclarations } from "./declare.js";

const WIDTH = 92;
const SUMMARY_INDENT = 28;

/** `text` cut into lines of at most `width` characters at spaces, each indented by `indent`. */
function wrap(text: string, indent: number, width = WIDTH): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/).filter((part) => part !== "")) {
    if (line !== "" && indent + line.length + 1 + word.length > width) {
      lines.push(" ".repeat(indent) + line);
      line = word;
    } else line = line === "" ? word : `${line} ${word}`;
  }
  if (line !== "") lines.push(" ".repeat(indent) + line);
  return lines;
}

/** `--member <file>`, `[--op <op id>]...`, `[--json]`. */
function flagSynopsis(name: string, flag: FlagDeclarations[string]): string {
  if (isSwitch(flag)) return `[--${name}]`;
  const bare = `--${name} <${flag.value}>`;
  if (flag.required === true) return flag.repeatable === true ? `${bare} [${bare}]...` : bare;
  return flag.repeatable === true ? `[${bare}]...` : `[${bare}]`;
}

/** The command's one-line form: its words, positionals and flags, wrapped under the command. */
export function synopsis(command: CommandDeclaration<FlagDeclarations>): string[] {
  const parts = [
    command.words.join(" "),
    command.positionals?.usage ?? "",
    ...Object.entries(command.flags).map(([name, flag]) => flagSynopsis(name, flag)),
  ].filter((part) => part !== "");
  const lines: string[] = [];
  let line = "";
  for (const part of parts) {
    if (line !== "" && 2 + line.length + 1 + part.length > WIDTH) {
      lines.push(line);
      line = `    ${part}`;
    } else line = line === "" ? part : `${line} ${part}`;
  }
  lines.push(line);
  return lines.map((text) => `  ${text}`);
}

/** `integrations --help`: every command by who runs it, generated from the declarations. */
export function usage(): string {
  const sections = AUDIENCES.map(({ audience, heading }) => {
    const entries = COMMANDS.filter((command) => command.audience === audience).map((command) =>
      [...synopsis(command), ...wrap(command.summary, SUMMARY_INDENT)].join("\n"),
    );
    return `${heading}:\n\n${entries.join("\n")}`;
  });
  return `usage: integrations <command> [options]    (integrations <command> --help: the command's options)\n\n${sections.join("\n\n")}\n`;
}

/** `integrations <command> --help`: the synopsis, what it does, and each flag with its default. */
export function commandHelp(command: CommandDeclaration<FlagDeclarations>): string {
  const lines = [`usage: integrations${synopsis(command).join("\n").slice(1)}`, "", ...wrap(command.summary, 2)];
  const flags = Object.entries(command.flags);
  if (flags.length > 0) {
    lines.push("", "options:");
    for (const [name, flag] of flags) {
      const head = isSwitch(flag) ? `--${name}` : `--${name} <${flag.value}>`;
      const details = [flag.help];
      if (!isSwitch(flag)) {
        if (flag.required === true) details.push("(required)");
        if (flag.repeatable === true) details.push("(repeatable)");
        if (flag.default !== undefined) details.push(`(default: ${typeof flag.default === "string" ? flag.default : flag.default.text})`);
      }
      const text = wrap(details.join(" "), SUMMARY_INDENT);
      if (head.length + 2 < SUMMARY_INDENT - 1) lines.push(`  ${head.padEnd(SUMMARY_INDENT - 2)}${(text[0] ?? "").trimStart()}`, ...text.slice(1));
      else lines.push(`  ${head}`, ...text);
    }
  }
  for (const note of command.notes ?? []) lines.push("", ...wrap(note, 2));
  return `${lines.join("\n")}\n`;
}
