import {
  CLOCK_SKEW_SECONDS,
  GrantError,
  verifyApprovalRevocation,
  verifyRevocation,
  verifySubscriptionRevocation,
  type Approval,
  type KeyPair,
  type Subscription,
} from "@eleven-integrations/grants";
import type { EventScheduler } from "../events/event-scheduler.js";
import type { EventStore } from "../events/event-store.js";
import type { FastifyBaseLogger } from "fastify";
import type { RevokeAnswer, RevokeBody } from "@eleven-integrations/sidecar-protocol";
import { StateUnavailableError, type SharedState } from "./shared-state.js";
import { UNAVAILABLE_REFUSAL } from "./state-refusals.js";

export interface RevokeDeps {
  botKeys: KeyPair;
  trustedMembers: string[];
  state: SharedState;
  /** The kept subscriptions: a revoked one is dropped and its polls stop. */
  events?: EventStore | undefined;
  scheduler?: EventScheduler | undefined;
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
 * grant's own member, for a grant this bot can open; or a standing approval's, likewise) and records it in the
 * shared store until the grant expires (its `exp` + 60 s of skew), so every
 * sidecar of the bot refuses the grant with `grant_invalid`.
 */
export async function revokeGrant(body: RevokeBody, deps: RevokeDeps, log: FastifyBaseLogger): Promise<RevokeAnswer> {
  let revoked: Revoked;
  try {
    revoked = verifiedRevocation(body.revocation, deps);
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
  const until = revoked.exp + CLOCK_SKEW_SECONDS;
  try {
    // An approval is refused by its id as a grant is by its own: both are random 16 bytes, so one key space holds both.
    await deps.state.revoke({ gid: revoked.id, member: revoked.member }, until);
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
  if (revoked.kind === "subscription") {
    deps.scheduler?.unschedule(revoked.id);
    await deps.events?.removeSubscription(revoked.id);
  }
  const id = revoked.kind === "grant" ? { gid: revoked.id } : revoked.kind === "approval" ? { aid: revoked.id } : { sid: revoked.id };
  log.info({ ...id, integration: revoked.integration }, `${revoked.kind} revoked`);
  return { status: "ok", ...id, integration: revoked.integration, member: revoked.member, revoked_until: until };
}

/** What a verified revocation ends: a grant or a standing approval, its id, member, integration and expiry. */
interface Revoked {
  kind: "grant" | "approval" | "subscription";
  id: string;
  member: string;
  integration: string;
  exp: number;
}

/** Verifies a revocation of a sealed grant (`eg1.`) or standing approval (`ea1.`): each opened by this bot and signed by its own member. */
function verifiedRevocation(token: string, deps: RevokeDeps): Revoked {
  const options = { bot: deps.botKeys, trustedMembers: deps.trustedMembers };
  try {
    const { grant } = verifyRevocation(token, options);
    return { kind: "grant", id: grant.gid, member: grant.iss, integration: grant.integration, exp: grant.exp };
  } catch (error) {
    // A revocation naming an approval is `malformed` for `verifyRevocation`: it is tried as one.
    if (!GrantError.isInstance(error) || error.code !== "malformed") throw error;
    let approval: Approval;
    try {
      ({ approval } = verifyApprovalRevocation(token, options));
    } catch (second) {
      if (!GrantError.isInstance(second) || second.code !== "malformed") throw second;
      // Not an approval's either: a subscription's (`es1.`), or else the grant's own refusal says what was wrong.
      let subscription: Subscription;
      try {
        ({ subscription } = verifySubscriptionRevocation(token, options));
      } catch (third) {
        if (GrantError.isInstance(third) && third.code === "malformed") throw error;
        throw third;
      }
      return { kind: "subscription", id: subscription.sid, member: subscription.iss, integration: subscription.integration, exp: subscription.exp };
    }
    return { kind: "approval", id: approval.aid, member: approval.iss, integration: approval.integration, exp: approval.exp };
  }
}
