import { argValueSchema, type ArgValue } from "@eleven-integrations/schema";
import { UsageError } from "./io.js";

/**
 * `--arg k=v` values into an args record: `name=text` for a string, `name:=<json>` for a list arg
 * (`to:=["ann@example.com","bob@example.org"]`) or a file arg (`file:={"sha256":"…"}`). A repeated
 * name is a usage error.
 */
export function opArgs(values: readonly string[]): Record<string, ArgValue> {
  const args: Record<string, ArgValue> = Object.create(null) as Record<string, ArgValue>;
  for (const value of values) {
    const equals = value.indexOf("=");
    if (equals <= 0) throw new UsageError(`--arg takes name=value, got "${value}"`);
    const json = value[equals - 1] === ":";
    const name = value.slice(0, json ? equals - 1 : equals);
    if (name === "") throw new UsageError(`--arg takes name=value, got "${value}"`);
    if (Object.hasOwn(args, name)) throw new UsageError(`--arg ${name} is given twice`);
    args[name] = json ? jsonValue(name, value.slice(equals + 1)) : value.slice(equals + 1);
  }
  return { ...args };
}

function jsonValue(name: string, text: string): ArgValue {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new UsageError(`--arg ${name}:= takes JSON (a list of strings, or a file object)`);
  }
  const checked = argValueSchema.safeParse(parsed);
  if (!checked.success) throw new UsageError(`--arg ${name}:= takes a list of strings or a file ({ name, content_type, base64 } or { sha256 })`);
  return checked.data;
}
