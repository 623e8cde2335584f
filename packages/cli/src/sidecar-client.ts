import { createSidecarClient, parseSidecarTarget, readCallerToken, type SidecarClient } from "@eleven-integrations/sidecar-protocol";

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
