import { credentialExpired, type Grant } from "@eleven-integrations/grants";
import type { RunAnswer } from "../run/answers.js";

/**
 * A run whose grant carries a credential past its `cred.expires_at`: answered
 * `unauthorized` before anything is sent (the provider would refuse the token
 * anyway, and a write would burn its member's tap for nothing). `null` while
 * the credential is good or says nothing of its expiry.
 */
export function expiredCredentialAnswer(grant: Grant, op: string, now?: number): RunAnswer | null {
  if (!credentialExpired(grant, now)) return null;
  return {
    status: "error",
    integration: grant.integration,
    op,
    error: {
      code: "unauthorized",
      message: `the ${grant.integration} credential in this grant expired; nothing was sent`,
      next_action: `Ask the member to reconnect ${grant.integration} (integrations connect ${grant.integration}) and send a fresh grant.`,
    },
  };
}
