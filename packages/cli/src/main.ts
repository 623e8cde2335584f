import { hasErrorMarker } from "@eleven-integrations/schema/marked-error";
import { COMMANDS } from "./declarations/commands.js";
import type { CommandDeclaration, FlagDeclarations } from "./declarations/declare.js";
import { commandHelp, usage } from "./declarations/help.js";
import { parseCommandLine } from "./declarations/parse.js";
import { processIo, UsageError, type CommandIo } from "./io.js";
import { escapeText } from "./terminal-text.js";

/** `integrations --help`, generated from the command declarations (`src/declarations/`). */
export const USAGE = usage();

/** The declaration `argv` names, and the arguments after its words; a word that starts commands but names none is a usage error. */
function findCommand(argv: readonly string[]): { command: CommandDeclaration<FlagDeclarations>; rest: readonly string[] } {
  const [first, second] = argv;
  const exact = COMMANDS.find((command) => command.words.every((word, index) => argv[index] === word));
  if (exact !== undefined) return { command: exact, rest: argv.slice(exact.words.length) };
  const family = COMMANDS.filter((command) => command.words.length > 1 && command.words[0] === first).map((command) => command.words[1] as string);
  if (family.length > 0) {
    if (second === undefined || second.startsWith("--")) throw new UsageError(`${first} needs a subcommand: ${family.join(" or ")}`);
    throw new UsageError(`unknown ${first} subcommand "${second}"`);
  }
  throw new UsageError(`unknown command "${first}"`);
}

/** A RegistryError's problems, read without loading the loader. */
type RegistryProblems = { issues: readonly { file: string; path: string; message: string }[] };

/**
 * Runs one command line; resolves to the exit code (0 ok, 1 failed, 2 usage).
 * Only the named command's code is loaded (each declaration imports its own).
 */
export async function main(argv: readonly string[], io: CommandIo = processIo): Promise<number> {
  const [first] = argv;
  if (first === undefined || first === "help" || first === "--help" || first === "-h") {
    const topic = first === "help" && argv.length > 1 ? argv.slice(1) : undefined;
    if (topic !== undefined) return main([...topic, "--help"], io);
    io.stdout(USAGE);
    return first === undefined ? 2 : 0;
  }
  let command: CommandDeclaration<FlagDeclarations> | undefined;
  try {
    const found = findCommand(argv);
    command = found.command;
    const parsed = parseCommandLine(command, found.rest, io.env);
    if (parsed.help) {
      io.stdout(commandHelp(command));
      return 0;
    }
    return await command.run(parsed.input, io);
  } catch (error) {
    if (hasErrorMarker(error, "SpecError") && error instanceof Error) {
      io.stderr(`integrations: ${escapeText(error.message)}\n`);
      return 2;
    }
    if (hasErrorMarker(error, "RegistryError")) {
      const { issues } = error as RegistryProblems;
      // A manifest that does not load: every problem, escaped (a problem can quote manifest text).
      for (const issue of issues) io.stderr(`${escapeText(`${issue.file}: ${issue.path}: ${issue.message}`)}\n`);
      io.stderr(`${issues.length} problem${issues.length === 1 ? "" : "s"}: nothing loaded\n`);
      return 1;
    }
    if (!UsageError.isInstance(error)) throw error;
    io.stderr(`integrations: ${escapeText(error.message)}\n\n${command === undefined ? USAGE : commandHelp(command)}`);
    return 2;
  }
}
