import { readFile } from "node:fs/promises";
import { UsageError, type CommandIo } from "./io.js";

/** Longest preview read: the sidecar's lines are at most 600 code points. */
const MAX_PREVIEW_INPUT_BYTES = 16 * 1024;

/**
 * Reads the preview a bot's `confirmation_required` answer gave (`--preview @file`
 * or `-` for standard input). Only the line ending the file or stream is dropped,
 * never other whitespace: the member signs the preview exactly as the sidecar
 * rendered it. A preview is one line; text with another line feed is refused.
 */
export async function readPreviewArgument(value: string, io: CommandIo): Promise<string> {
  let text: string;
  if (value === "-" || value === "@-") {
    if (io.readStdin === undefined) throw new UsageError("--preview -: there is no standard input to read");
    text = await io.readStdin();
  } else if (value.startsWith("@") && value.length > 1) {
    const file = value.slice(1);
    let bytes: Buffer;
    try {
      bytes = await readFile(file);
    } catch (error) {
      throw new UsageError(`--preview: cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? "error"}`);
    }
    if (bytes.length > MAX_PREVIEW_INPUT_BYTES) throw new UsageError(`--preview: ${file} is larger than ${MAX_PREVIEW_INPUT_BYTES} bytes`);
    text = bytes.toString("utf8");
  } else {
    throw new UsageError("--preview takes @file or - (standard input): the preview exactly as the bot's confirmation_required answer gave it");
  }
  const line = text.replace(/\r?\n$/u, "");
  if (line === "") throw new UsageError("--preview: the preview is empty");
  if (/[\r\n]/u.test(line)) throw new UsageError("--preview: a preview is one line; this text has more");
  return line;
}
