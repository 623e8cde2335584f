import { DEFAULT_MAX_LENGTH, type Arg, type ArgType } from "@eleven-integrations/schema";

export interface CompiledArg {
  readonly name: string;
  readonly required: boolean;
  /** In Unicode code points. */
  readonly maxLength: number;
  /** Anchored: matched against the whole value, with the `u` flag. */
  readonly pattern: RegExp | undefined;
  readonly enum: ReadonlySet<string> | undefined;
  readonly description: string | undefined;
  /** The type the value is checked as (`string` when the manifest declares none). */
  readonly type: ArgType;
  /** A list arg's most items (`max_items`); undefined for any other type. */
  readonly maxItems: number | undefined;
}

export function compileArgs(args: Record<string, Arg> | undefined): ReadonlyMap<string, CompiledArg> {
  const compiled = new Map<string, CompiledArg>();
  for (const [name, arg] of Object.entries(args ?? {})) {
    compiled.set(
      name,
      Object.freeze({
        name,
        required: arg.required === true,
        maxLength: arg.max_length ?? DEFAULT_MAX_LENGTH,
        pattern: arg.pattern === undefined ? undefined : new RegExp(`^(?:${arg.pattern})$`, "u"),
        enum: arg.enum === undefined ? undefined : new Set(arg.enum),
        description: arg.description,
        type: arg.type ?? "string",
        maxItems: arg.max_items,
      }),
    );
  }
  return compiled;
}
