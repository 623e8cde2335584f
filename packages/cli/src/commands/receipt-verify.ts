import { GrantError, ready, verifyReceipt } from "@eleven-integrations/grants";
import { UsageError, type CommandIo } from "../io.js";
import { readSecretArgument } from "../secret-input.js";
import { escapeText } from "../terminal-text.js";

/**
 * `integrations receipt verify --key <receipt_key> @file|-`: checks a sidecar's
 * receipt (`ew1.…`, a trailing newline trimmed) against its `receipt_key` and prints
 * the signed payload as JSON; exits 1 naming why it does not verify.
 */
export async function receiptVerify(key: string, source: string | undefined, io: CommandIo): Promise<number> {
  if (source === undefined) throw new UsageError("receipt verify takes the receipt as @file or - (standard input)");
  const token = await readSecretArgument("receipt", source, io);
  await ready();
  try {
    const payload = verifyReceipt(token, { key });
    io.stdout(`${JSON.stringify(payload, null, 2)}\n`);
    return 0;
  } catch (error) {
    if (!GrantError.isInstance(error)) throw error;
    io.stderr(`integrations receipt verify: ${error.code}: ${escapeText(error.message)}\n`);
    return 1;
  }
}
