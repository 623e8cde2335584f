import { GrantError, type Grant, type GrantErrorCode } from "@eleven-integrations/grants";
import type { Registry } from "@eleven-integrations/loader";
import type { Refusal } from "../run/answers.js";
import type { GrantOpener } from "../run/grant-opener.js";
import type { Call, OpenCall, Stage } from "./call.js";

export interface GrantCheckContext {
  registry: Registry;
  /** This bot's `openGrant`, bound to its keys and trusted members. */
  openGrant: GrantOpener;
}

export type GrantCheck =
  | { ok: true; grant: Grant }
  /** `grant` is there when the grant opened but does not match the loaded manifest. */
  | { ok: false; refusal: Refusal; grant: Grant | undefined };

const OPEN_NEXT_ACTION: Record<GrantErrorCode, string> = {
  expired: "Ask the member for a fresh grant: this one has expired.",
  not_for_this_bot: "Ask the member to grant this bot: seal the grant to the public key GET /v1/identity returns.",
  untrusted_member: "Ask a member this sidecar trusts for the grant, or add the member's public key to trusted-members.json.",
  not_yet_valid: "Check the clocks of this machine and the member's device, then ask for a fresh grant.",
  ttl_too_long: "Ask the member for a grant that lives at most an hour.",
  malformed: "Ask the member for a fresh grant: this one is damaged or incomplete.",
  bad_signature: "Ask the member for a fresh grant: this one was altered or not signed by its member.",
  replayed: "Ask the member for a fresh grant.",
  mismatch: "Ask the member for a fresh grant.",
};

/**
 * Opens a grant for this bot and checks it was issued for the manifest this
 * sidecar runs. `expired` is `grant_expired`; every other refusal, and a grant
 * for a manifest that changed since the member saw it, is `grant_invalid`.
 */
export function checkGrant(sealed: string, context: GrantCheckContext): GrantCheck {
  let grant: Grant;
  try {
    grant = context.openGrant(sealed);
  } catch (error) {
    if (!GrantError.isInstance(error)) throw error;
    const code = error.code === "expired" ? "grant_expired" : "grant_invalid";
    return {
      ok: false,
      grant: undefined,
      refusal: { code, message: `grant refused (${error.code}): ${error.message}`, next_action: OPEN_NEXT_ACTION[error.code] },
    };
  }
  const manifestHash = context.registry.manifestHash(grant.integration);
  if (manifestHash === undefined) {
    return {
      ok: false,
      grant,
      refusal: {
        code: "grant_invalid",
        message: `this sidecar does not run the integration ${grant.integration}`,
        next_action: `Update this sidecar's registry to one with ${grant.integration}, or ask the member for a grant to an integration it runs.`,
      },
    };
  }
  if (manifestHash !== grant.manifest_hash) {
    return {
      ok: false,
      grant,
      refusal: {
        code: "grant_invalid",
        message: `the ${grant.integration} manifest changed since the member granted it`,
        next_action: `Ask the member for a fresh grant: the ${grant.integration} integration changed since it was granted.`,
      },
    };
  }
  return { ok: true, grant };
}

/**
 * The first step of every call: the grant opens for this bot and names the
 * manifest this sidecar runs. What it learns (grant, member, integration,
 * account, and the op with its access) goes into the call and its audit facts
 * even when it refuses. A `whoami` call's op is the integration's identity op.
 */
export function open(call: Call, sealedGrant: string): Stage<OpenCall> {
  const { registry } = call.snapshot;
  const checked = checkGrant(sealedGrant, { registry, openGrant: call.context.openGrant });
  const { grant } = checked;
  if (grant !== undefined) {
    call.facts.gid = grant.gid;
    call.facts.member = grant.iss;
    call.facts.integration = grant.integration;
    call.facts.account = grant.account ?? null;
    if (call.purpose === "whoami") {
      const identity = registry.get(grant.integration)?.auth.identity;
      if (identity !== undefined) call.facts.op = identity;
    }
    const operation = registry.operation(grant.integration, call.facts.op);
    if (operation !== undefined) {
      call.operation = operation;
      call.facts.access = operation.access;
    }
  }
  if (!checked.ok) return { ok: false, answer: { status: "error", integration: grant?.integration ?? null, op: call.facts.op, error: checked.refusal } };
  const scope = { member: checked.grant.iss, gid: checked.grant.gid, integration: checked.grant.integration };
  return { ok: true, call: Object.assign(call, { grant: checked.grant, scope }) };
}
