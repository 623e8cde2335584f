import type { CommandIo } from "../io.js";

/** Who runs a command: the help groups commands by it. */
export type Audience = "member" | "bot" | "maintainer" | "spec";

type Environment = Readonly<Record<string, string | undefined>>;

/** A flag that takes a value: `--name <value>` or `--name=value`. */
export interface ValueFlag {
  /** What the value is, as the help shows it: `file`, `read|write`. */
  readonly value: string;
  readonly help: string;
  readonly required?: true;
  /** Given more than once, every value is kept. */
  readonly repeatable?: true;
  /** The value when the flag is not given: a fixed one, or one read from the environment (`text` is what the help shows). */
  readonly default?: string | { readonly text: string; readonly from: (env: Environment) => string };
}

/** A flag that takes no value: present or not. */
export interface SwitchFlag {
  readonly switch: true;
  readonly help: string;
}

export type FlagDeclaration = ValueFlag | SwitchFlag;
export type FlagDeclarations = Readonly<Record<string, FlagDeclaration>>;

type FlagValue<F> = F extends SwitchFlag
  ? boolean
  : F extends { repeatable: true }
    ? string[]
    : F extends { required: true }
      ? string
      : F extends { default: unknown }
        ? string
        : string | undefined;

/** The flags as a command's code receives them, typed from their declaration. */
export type FlagValues<F extends FlagDeclarations> = { -readonly [K in keyof F]: FlagValue<F[K]> };

export interface PositionalDeclaration {
  /** As the help shows them: `<integration> <op>`, `[dir]`. */
  readonly usage: string;
  readonly min: number;
  /** Default: `min`. */
  readonly max?: number;
  /** Said when the count is wrong. */
  readonly message: string;
}

export interface CommandInput<F extends FlagDeclarations> {
  readonly flags: FlagValues<F>;
  readonly positionals: readonly string[];
}

/**
 * One command, declared once: its words, who runs it, what it does, its
 * positionals and flags (with their defaults and help), and `run`, which
 * imports the command's code only when the command runs.
 */
export interface CommandDeclaration<F extends FlagDeclarations = FlagDeclarations> {
  /** `["grant"]`, `["registry", "sign"]`. */
  readonly words: readonly string[];
  readonly audience: Audience;
  /** One paragraph; the help wraps it. */
  readonly summary: string;
  readonly positionals?: PositionalDeclaration;
  readonly flags: F;
  /** Lines the command's own help adds after its flags. */
  readonly notes?: readonly string[];
  run(input: CommandInput<F>, io: CommandIo): Promise<number>;
}

/** Declares a command; the flags' types flow from `flags` into `run`. */
export function defineCommand<const F extends FlagDeclarations>(declaration: CommandDeclaration<F>): CommandDeclaration<F> {
  return declaration;
}

export function isSwitch(flag: FlagDeclaration): flag is SwitchFlag {
  return "switch" in flag;
}
