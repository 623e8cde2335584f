import { UsageError } from "../io.js";
import { isSwitch, type CommandDeclaration, type CommandInput, type FlagDeclarations } from "./declare.js";

type Environment = Readonly<Record<string, string | undefined>>;

/**
 * Reads a command's arguments against its declaration: `--flag value`,
 * `--flag=value`, switches, positionals; fills in defaults; refuses an
 * unknown flag, a missing value, a required flag left out, a single flag
 * given twice and a wrong number of positionals. `help` is true for `--help`.
 */
export function parseCommandLine<F extends FlagDeclarations>(
  declaration: CommandDeclaration<F>,
  argv: readonly string[],
  env: Environment,
): { help: true } | { help: false; input: CommandInput<F> } {
  const positionals: string[] = [];
  const given = new Map<string, string[]>();
  for (let index = 0; index < argv.length; index += 1) {
    const arg = argv[index] as string;
    if (!arg.startsWith("--")) {
      positionals.push(arg);
      continue;
    }
    const equals = arg.indexOf("=");
    const name = arg.slice(2, equals === -1 ? undefined : equals);
    if (name === "help") return { help: true };
    const flag = Object.hasOwn(declaration.flags, name) ? declaration.flags[name] : undefined;
    if (flag === undefined) throw new UsageError(`unknown option --${name}`);
    if (isSwitch(flag)) {
      given.set(name, ["true"]);
      continue;
    }
    const value = equals === -1 ? argv[++index] : arg.slice(equals + 1);
    if (value === undefined) throw new UsageError(`--${name} needs a value`);
    given.set(name, [...(given.get(name) ?? []), value]);
  }

  const expected = declaration.positionals ?? { usage: "", min: 0, message: `${declaration.words.join(" ")} takes no positional arguments` };
  const max = expected.max ?? expected.min;
  if (positionals.length < expected.min || positionals.length > max) {
    const extra = positionals.length > max && max === 0 ? `, got "${positionals[0]}"` : "";
    throw new UsageError(`${expected.message}${extra}`);
  }

  const flags: Record<string, string | string[] | boolean | undefined> = {};
  for (const [name, flag] of Object.entries(declaration.flags)) {
    const values = given.get(name) ?? [];
    if (isSwitch(flag)) {
      flags[name] = values.length > 0;
      continue;
    }
    if (flag.repeatable === true) {
      flags[name] = values;
      continue;
    }
    if (values.length > 1) throw new UsageError(`--${name} is given more than once`);
    if (values.length === 0 && flag.required === true) throw new UsageError(`--${name} is required`);
    const fallback = flag.default === undefined ? undefined : typeof flag.default === "string" ? flag.default : flag.default.from(env);
    flags[name] = values[0] ?? fallback;
  }

  return { help: false, input: { flags: flags as CommandInput<F>["flags"], positionals } };
}
