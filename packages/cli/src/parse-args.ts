import { UsageError } from "./io.js";

export interface ParsedArgs {
  positionals: string[];
  /** `--name value` or `--name=value`; a repeated flag keeps every value. */
  flags: Map<string, string[]>;
}

/** Parses `--flag value`, `--flag=value` and positionals; `booleans` take no value. */
export function parseArgs(argv: readonly string[], known: { values: readonly string[]; booleans?: readonly string[] }): ParsedArgs {
  const positionals: string[] = [];
  const flags = new Map<string, string[]>();
  for (let index = 0; index < argv.length; index += 1) {
    const arg = argv[index] as string;
    if (!arg.startsWith("--")) {
      positionals.push(arg);
      continue;
    }
    const equals = arg.indexOf("=");
    const name = arg.slice(2, equals === -1 ? undefined : equals);
    if (known.booleans?.includes(name)) {
      flags.set(name, ["true"]);
      continue;
    }
    if (!known.values.includes(name)) throw new UsageError(`unknown option --${name}`);
    const value = equals === -1 ? argv[++index] : arg.slice(equals + 1);
    if (value === undefined) throw new UsageError(`--${name} needs a value`);
    flags.set(name, [...(flags.get(name) ?? []), value]);
  }
  return { positionals, flags };
}

export function oneFlag(args: ParsedArgs, name: string, options: { required: true }): string;
export function oneFlag(args: ParsedArgs, name: string, options?: { required?: false }): string | undefined;
export function oneFlag(args: ParsedArgs, name: string, options?: { required?: boolean }): string | undefined {
  const values = args.flags.get(name) ?? [];
  if (values.length > 1) throw new UsageError(`--${name} is given more than once`);
  if (values.length === 0 && options?.required === true) throw new UsageError(`--${name} is required`);
  return values[0];
}
