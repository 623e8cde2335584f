import { accountFromIdentity, resolveBase, type Account, type Executor } from "@eleven-integrations/executor";
import type { Manifest } from "@eleven-integrations/schema";

/**
 * Who a fresh token is, as the callback acts on it: the account; no identity op
 * declared (the connection goes on without an account); the provider refusing
 * the token (401/403: the exchange gave a token that does not work); or the
 * provider not answering usably (5xx, timeout, unreachable, an answer without the
 * account's fields).
 */
export type IdentityOutcome =
  | { kind: "identified"; account: Account }
  | { kind: "not_declared" }
  /** The identity op's host names a tenant this flow does not know (Atlassian's cloud id is found after the token): asked later, with the grant's connection. */
  | { kind: "needs_connection" }
  | { kind: "refused"; code: string }
  | { kind: "unavailable"; code: string };

const REFUSED = new Set(["unauthorized", "forbidden"]);

/** Runs the manifest's identity op with the new token through the executor (the broker's dispatcher). */
export async function identifyAccount(
  executor: Executor,
  manifest: Manifest,
  token: string,
  connection: Readonly<Record<string, string>> | undefined,
): Promise<IdentityOutcome> {
  const op = manifest.auth.identity;
  if (op === undefined) return { kind: "not_declared" };
  if (!resolveBase(manifest, connection).ok) return { kind: "needs_connection" };
  const envelope = await executor.run({ integration: manifest.id, op, credential: { token, kind: "oauth" }, connection });
  if (envelope.status === "error")
    return REFUSED.has(envelope.error.code) ? { kind: "refused", code: envelope.error.code } : { kind: "unavailable", code: envelope.error.code };
  const account = accountFromIdentity(manifest, envelope);
  return account.ok ? { kind: "identified", account: account.account } : { kind: "unavailable", code: account.error.code };
}
