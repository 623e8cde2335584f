import { UsageError } from "./io.js";

/** `--arg k=v` values into an args record; a repeated name is a usage error. */
export function opArgs(values: readonly string[]): Record<string, string> {
  const args: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const value of values) {
    const equals = value.indexOf("=");
    if (equals <= 0) throw new UsageError(`--arg takes name=value, got "${value}"`);
    const name = value.slice(0, equals);
    if (Object.hasOwn(args, name)) throw new UsageError(`--arg ${name} is given twice`);
    args[name] = value.slice(equals + 1);
  }
  return { ...args };
}
