import { readFile, stat, writeFile } from "node:fs/promises";
import type { KeyPair } from "@eleven-integrations/grants";
import { UsageError } from "./io.js";

export type KeyKind = "member" | "bot" | "release";

/** A key file: `{ kind, publicKey, secretKey }`, written 0600 and never overwritten. */
export async function writeKeyFile(path: string, kind: KeyKind, keys: KeyPair): Promise<void> {
  try {
    await writeFile(path, `${JSON.stringify({ kind, ...keys }, null, 2)}\n`, { mode: 0o600, flag: "wx" });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") throw new UsageError(`${path} exists; not overwriting a key`);
    throw error;
  }
}

/** Reads a key file of the given kind, refusing one that others can read. */
export async function readKeyFile(path: string, kind: KeyKind): Promise<KeyPair> {
  let text: string;
  try {
    if (((await stat(path)).mode & 0o077) !== 0) throw new UsageError(`${path} is readable by others; run chmod 600 ${path}`);
    text = await readFile(path, "utf8");
  } catch (error) {
    if (UsageError.isInstance(error)) throw error;
    throw new UsageError(`cannot read the ${kind} key file ${path}: ${(error as NodeJS.ErrnoException).code ?? "error"}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new UsageError(`${path} is not a key file (invalid JSON)`);
  }
  const file = parsed as { kind?: unknown; publicKey?: unknown; secretKey?: unknown };
  if (file.kind !== kind || typeof file.publicKey !== "string" || typeof file.secretKey !== "string") {
    throw new UsageError(`${path} is not a ${kind} key file (run: integrations keys ${kind} --out ${path})`);
  }
  return { publicKey: file.publicKey, secretKey: file.secretKey };
}
