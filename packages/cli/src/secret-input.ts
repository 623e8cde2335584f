import { readFile } from "node:fs/promises";
import { UsageError, type CommandIo } from "./io.js";

/** Longest grant, confirmation or revocation read from a file or standard input (grants are at most 16 KiB). */
const MAX_SECRET_INPUT_BYTES = 64 * 1024;

/**
 * Reads a grant, confirmation or revocation given as `@file` or `-` (standard
 * input; `@-` too), trimmed. A literal value is refused: a process's arguments are
 * readable by every local user (`ps`, `/proc/<pid>/cmdline`) and stay in shell
 * history, and a grant carries the member's credential.
 *
 * @param flag the option's name without dashes, for the messages (`grant`).
 */
export async function readSecretArgument(flag: string, value: string, io: CommandIo): Promise<string> {
  let text: string;
  if (value === "-" || value === "@-") {
    if (io.readStdin === undefined) throw new UsageError(`--${flag} -: there is no standard input to read`);
    text = await io.readStdin();
  } else if (value.startsWith("@") && value.length > 1) {
    const file = value.slice(1);
    let bytes: Buffer;
    try {
      bytes = await readFile(file);
    } catch (error) {
      throw new UsageError(`--${flag}: cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? "error"}`);
    }
    if (bytes.length > MAX_SECRET_INPUT_BYTES) throw new UsageError(`--${flag}: ${file} is larger than ${MAX_SECRET_INPUT_BYTES} bytes`);
    text = bytes.toString("utf8");
  } else {
    throw new UsageError(
      `--${flag} takes @file or - (standard input), never the ${flag} itself: a command's arguments are readable by every local user (ps, /proc/<pid>/cmdline) and stay in shell history`,
    );
  }
  const trimmed = text.trim();
  if (trimmed === "") throw new UsageError(`--${flag}: ${value.startsWith("@") && value !== "@-" ? value.slice(1) : "standard input"} is empty`);
  return trimmed;
}

/** Refuses two options that both read standard input. */
export function oneStandardInput(values: readonly (string | undefined)[]): void {
  if (values.filter((value) => value === "-" || value === "@-").length > 1) throw new UsageError("only one option can read standard input (-)");
}
