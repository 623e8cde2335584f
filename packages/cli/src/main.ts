import { list } from "./commands/list.js";
import { show } from "./commands/show.js";
import { validate } from "./commands/validate.js";
import { processIo, UsageError, type CommandIo } from "./io.js";
import { oneFlag, parseArgs } from "./parse-args.js";

export const USAGE = `usage: integrations <command>

  validate [dir]            check every manifest in dir (default: the repository's manifests)
  list [--dir d]            list the integrations
  show <id> [--dir d] [--json]
                            show one integration's auth and ops
`;

/** Runs one command line; resolves to the exit code (0 ok, 1 failed, 2 usage). */
export async function main(argv: readonly string[], io: CommandIo = processIo): Promise<number> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case "validate": {
        const args = parseArgs(rest, { values: [] });
        if (args.positionals.length > 1) throw new UsageError("validate takes at most one folder");
        return await validate(args.positionals[0], io);
      }
      case "list": {
        const args = parseArgs(rest, { values: ["dir"] });
        if (args.positionals.length > 0) throw new UsageError(`list takes no arguments, got "${args.positionals[0]}"`);
        return await list(oneFlag(args, "dir"), io);
      }
      case "show": {
        const args = parseArgs(rest, { values: ["dir"], booleans: ["json"] });
        if (args.positionals.length > 1) throw new UsageError("show takes one integration id");
        return await show(args.positionals[0], oneFlag(args, "dir"), args.flags.has("json"), io);
      }
      case undefined:
      case "help":
      case "--help":
        io.stdout(USAGE);
        return command === undefined ? 2 : 0;
      default:
        throw new UsageError(`unknown command "${command}"`);
    }
  } catch (error) {
    if (!UsageError.isInstance(error)) throw error;
    io.stderr(`integrations: ${error.message}\n\n${USAGE}`);
    return 2;
  }
}
