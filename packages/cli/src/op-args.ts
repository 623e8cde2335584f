import type { ArgValue } from "@eleven-integrations/schema";
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
  if (!isArgShape(parsed)) throw new UsageError(`--arg ${name}:= takes a list of strings or a file ({ name, content_type, base64 } or { sha256 })`);
  return parsed;
}

const FILE_KEYS = [["name", "content_type", "base64"], ["sha256"]];

/**
 * A list of strings, or an object with exactly a file's keys, all strings: checked by hand so the command
 * line's declarations load no zod (`--help` stays light); the sidecar checks the file value in full.
 */
function isArgShape(value: unknown): value is ArgValue {
  if (Array.isArray(value)) return value.every((item) => typeof item === "string");
  if (value === null || typeof value !== "object") return false;
  const keys = Object.keys(value).sort();
  return (
    FILE_KEYS.some((wanted) => wanted.length === keys.length && [...wanted].sort().every((key, index) => key === keys[index])) &&
    Object.values(value).every((item) => typeof item === "string")
  );
}
