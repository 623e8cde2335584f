import { GrantError, openSubscription, type Grant, type KeyPair, type Subscription } from "@eleven-integrations/grants";
import type { SubscribeAnswer, SubscribeBody } from "@eleven-integrations/sidecar-protocol";
import type { GrantOpener } from "../run/grant-opener.js";
import type { LiveRegistry } from "../registry/live-registry.js";
import type { SharedState } from "../state/shared-state.js";
import type { EventScheduler } from "./event-scheduler.js";
import type { EventStore, KeptSubscription } from "./event-store.js";

export interface SubscribeDeps {
  botKeys: KeyPair;
  trustedMembers: string[];
  openGrant: GrantOpener;
  state: SharedState;
  live: LiveRegistry;
  events: EventStore;
  scheduler: EventScheduler;
}

type Refusal = Extract<SubscribeAnswer, { status: "error" }>;

const OPEN_NEXT_ACTION: Partial<Record<string, string>> = {
  expired: "The subscription has expired: ask the member to sign a new one.",
  not_for_this_bot: "This subscription was sealed to another bot: only that bot can add it.",
  untrusted_member: "The subscription was signed by a member this sidecar does not trust.",
  ttl_too_long: "A subscription lives at most 30 days: ask the member to sign a shorter one.",
  not_yet_valid: "The subscription was signed in the future: check the member's clock and ask them to sign it again.",
  bad_signature: "Ask the member to sign the subscription again.",
};

function refused(code: string, message: string, next_action: string): Refusal {
  return { status: "error", error: { code: code as Refusal["error"]["code"], message, next_action } };
}

/**
 * `POST /v1/subscriptions { subscription, grant? }`: the subscription opens for this
 * bot and a trusted member, is not revoked, names the manifest running now and
 * only events it declares (with every required arg). A poll subscription needs a
 * live grant of the same member and integration; its first poll runs now as the
 * baseline (nothing emitted). Sent again with a renewed grant, a kept
 * subscription resumes on its memory, with no new baseline.
 */
export async function subscribe(body: SubscribeBody, deps: SubscribeDeps): Promise<SubscribeAnswer> {
  let subscription: Subscription;
  try {
    subscription = openSubscription(body.subscription, { bot: deps.botKeys, trustedMembers: deps.trustedMembers });
  } catch (error) {
    if (!GrantError.isInstance(error)) throw error;
    return refused(
      "subscription_invalid",
      `subscription refused (${error.code}): ${error.message}`,
      OPEN_NEXT_ACTION[error.code] ?? "Ask the member to sign a new subscription.",
    );
  }
  const { sid, integration } = subscription;
  if (await deps.state.isRevoked({ gid: sid, member: subscription.iss }, "shared")) {
    return refused("subscription_invalid", "the member revoked this subscription", "Ask the member for a new subscription if they want the events again.");
  }
  const registry = deps.live.current().registry;
  const manifest = registry.get(integration);
  if (manifest === undefined)
    return refused("subscription_invalid", `this sidecar does not run ${integration}`, "Send it to a sidecar that runs the integration.");
  if (registry.manifestHash(integration) !== subscription.manifest_hash) {
    return refused(
      "subscription_invalid",
      `the ${integration} manifest changed since the member signed this subscription`,
      "Ask the member to look at the events again and sign a new subscription.",
    );
  }
  const declared = new Map((manifest.events ?? []).map((event) => [event.id, event]));
  const undeclared = subscription.events.filter((id) => !declared.has(id));
  if (undeclared.length > 0)
    return refused(
      "subscription_invalid",
      `${integration} declares no event ${undeclared.join(", ")}`,
      "Ask the member to subscribe to events the manifest declares.",
    );
  for (const id of subscription.events) {
    const missing = Object.entries(declared.get(id)?.args ?? {})
      .filter(([name, arg]) => arg.required === true && subscription.args?.[name] === undefined)
      .map(([name]) => name);
    if (missing.length > 0)
      return refused("subscription_invalid", `the event ${id} needs ${missing.join(", ")}`, "Ask the member to sign the subscription with those args.");
  }
  const polls = subscription.events.some((id) => declared.get(id)?.source === "poll");
  const kept: KeptSubscription = {
    sid,
    member: subscription.iss,
    integration,
    events: [...subscription.events],
    ...(subscription.args === undefined ? {} : { args: subscription.args }),
    manifestHash: subscription.manifest_hash,
    exp: subscription.exp,
    subscription: body.subscription,
  };
  if (polls) {
    if (body.grant === undefined) {
      return refused(
        "grant_required",
        `${subscription.events.join(", ")} is polled: it runs only under a live grant of the member`,
        `Send the subscription with a live ${integration} grant of the same member: POST /v1/subscriptions { subscription, grant }.`,
      );
    }
    let grant: Grant;
    try {
      grant = deps.openGrant(body.grant);
    } catch (error) {
      if (!GrantError.isInstance(error)) throw error;
      const code = error.code === "expired" ? "grant_expired" : "grant_invalid";
      return refused(code, `grant refused (${error.code}): ${error.message}`, "Ask the member for a fresh grant and send it with the subscription.");
    }
    if (grant.iss !== subscription.iss || grant.integration !== integration) {
      return refused(
        "grant_invalid",
        "the grant is not of the subscription's member and integration",
        `Send a ${integration} grant of the member who signed the subscription.`,
      );
    }
    Object.assign(kept, { grant: body.grant, gid: grant.gid, grantExp: grant.exp });
  }
  const known = (await deps.events.subscriptions()).some((other) => other.sid === sid);
  let pollsRun: { event: string; every: number; baseline: number }[] = [];
  if (polls && !known) {
    const baseline = await deps.scheduler.baseline(kept);
    if (!baseline.ok) {
      const { error } = baseline.answer;
      return refused(error.code, `the first poll was refused: ${error.message}`, error.next_action ?? "Check the grant and try again.");
    }
    pollsRun = baseline.polls;
  } else if (polls) {
    pollsRun = subscription.events
      .map((id) => declared.get(id))
      .filter((event) => event?.source === "poll")
      .map((event) => ({ event: event?.id ?? "", every: event?.poll?.every ?? 0, baseline: 0 }));
  }
  await deps.events.putSubscription(kept);
  deps.scheduler.schedule(kept);
  return { status: "ok", sid, integration, events: kept.events, exp: kept.exp, polls: pollsRun };
}
