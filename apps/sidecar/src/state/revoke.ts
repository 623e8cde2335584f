import { CLOCK_SKEW_SECONDS, GrantError, verifyRevocation, type Grant, type KeyPair } from "@eleven-integrations/grants";
import type { FastifyBaseLogger } from "fastify";
import type { RevokeAnswer, RevokeBody } from "@eleven-integrations/sidecar-protocol";
import { StateUnavailableError, type SharedState } from "./shared-state.js";
import { UNAVAILABLE_REFUSAL } from "./state-refusals.js";

export interface RevokeDeps {
  botKeys: KeyPair;
  trustedMembers: string[];
  state: SharedState;
}

/** `POST /v1/revoke` answers (HTTP 200 for every well-formed, authorised call): the contract's. */
export type { RevokeAnswer };

const NEXT_ACTION: Partial<Record<string, string>> = {
  expired: "Nothing to do: the grant has already expired and no sidecar runs it.",
  not_for_this_bot: "Send the revocation to a sidecar of the bot the grant was sealed to.",
  untrusted_member: "Only a member this sidecar trusts can revoke a grant it runs.",
  bad_signature: "Sign the revocation with the key of the member who issued the grant (integrations revoke --member).",
};

/**
 * `POST /v1/revoke { revocation }`: verifies the revocation (signed by the
 * grant's own member, for a grant this bot can open) and records it in the
 * shared store until the grant expires (its `exp` + 60 s of skew), so every
 * sidecar of the bot refuses the grant with `grant_invalid`.
 */
export async function revokeGrant(body: RevokeBody, deps: RevokeDeps, log: FastifyBaseLogger): Promise<RevokeAnswer> {
  let grant: Grant;
  try {
    ({ grant } = verifyRevocation(body.revocation, { bot: deps.botKeys, trustedMembers: deps.trustedMembers }));
  } catch (error) {
    if (!GrantError.isInstance(error)) throw error;
    return {
      status: "error",
      error: {
        code: "revocation_invalid",
        message: `revocation refused (${error.code}): ${error.message}`,
        next_action: NEXT_ACTION[error.code] ?? "Sign a fresh revocation with integrations revoke.",
      },
    };
  }
  const until = grant.exp + CLOCK_SKEW_SECONDS;
  try {
    await deps.state.revoke({ gid: grant.gid, member: grant.iss }, until);
  } catch (error) {
    if (!StateUnavailableError.isInstance(error)) throw error;
    log.warn({ kind: error.name }, "a revocation could not be recorded");
    return {
      status: "error",
      error: {
        ...UNAVAILABLE_REFUSAL,
        message: "the sidecar cannot reach its shared state (Redis, or its journal on disk), so the revocation was not recorded",
      },
    };
  }
  log.info({ gid: grant.gid, integration: grant.integration }, "grant revoked");
  return { status: "ok", gid: grant.gid, integration: grant.integration, member: grant.iss, revoked_until: until };
}
