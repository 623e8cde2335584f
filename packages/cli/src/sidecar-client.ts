import { createSidecarClient, parseSidecarTarget, readCallerToken, SidecarClientError, type SidecarClient } from "@eleven-integrations/sidecar-protocol";
import { UsageError, type CommandIo } from "./io.js";
import { escapeText } from "./terminal-text.js";

/**
 * A client of the sidecar at `address` (`unix:/path` or a loopback `http://` origin)
 * with the token in `callerTokenFile`: the protocol package's client, typed answers
 * and errors. Throws `SidecarClientError` (`invalid_target`,
 * `caller_token_unreadable`) before anything is sent.
 */
export async function connectSidecar(address: string, callerTokenFile: string): Promise<SidecarClient> {
  const target = parseSidecarTarget(address);
  return createSidecarClient(target, { callerToken: await readCallerToken(callerTokenFile) });
}

/** `connectSidecar` for a command: a bad address or an unreadable token file is the command's usage error (exit 2). */
export async function connectForCommand(address: string, callerTokenFile: string): Promise<SidecarClient> {
  try {
    return await connectSidecar(address, callerTokenFile);
  } catch (error) {
    if (SidecarClientError.isInstance(error)) throw new UsageError(error.message);
    throw error;
  }
}

/**
 * Asks the sidecar once and closes the client. A refusal before the route (401, 403, a
 * timeout, no sidecar...) is printed, escaped, on standard error and answers `undefined`,
 * for the command to exit 1.
 */
export async function askOnce<T>(client: SidecarClient, ask: (client: SidecarClient) => Promise<T>, io: CommandIo): Promise<T | undefined> {
  try {
    return await ask(client);
  } catch (error) {
    if (!SidecarClientError.isInstance(error)) throw error;
    io.stderr(`${escapeText(error.message)}\n`);
    return undefined;
  } finally {
    await client.close();
  }
}
