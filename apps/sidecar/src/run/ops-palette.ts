import type { Registry } from "@eleven-integrations/loader";
import { grantAllows } from "../call/access.js";
import type { OpsAnswer, PaletteOperation } from "./answers.js";
import type { OpsBody } from "@eleven-integrations/sidecar-protocol";
import { checkGrant, type GrantCheckContext } from "../call/open.js";
import type { SharedState } from "../state/shared-state.js";
import { REVOKED_REFUSAL } from "../state/state-refusals.js";

/**
 * `POST /v1/ops`: the ops this grant enables, in manifest order (a read grant
 * lists reads only; an allow-list is respected), each with its args as the
 * manifest declares them and, for a write, its confirm template.
 */
export async function opsPalette(body: OpsBody, context: GrantCheckContext & { registry: Registry; state: SharedState }): Promise<OpsAnswer> {
  const checked = checkGrant(body.grant, context);
  if (!checked.ok) return { status: "error", integration: checked.grant?.integration ?? null, error: checked.refusal };
  const { grant } = checked;
  // Listing runs nothing: what this sidecar knows is enough while the shared store is down.
  if (await context.state.isRevoked({ gid: grant.gid, member: grant.iss }, "local-ok"))
    return { status: "error", integration: grant.integration, error: REVOKED_REFUSAL };
  const manifest = context.registry.get(grant.integration);
  const ops: PaletteOperation[] = [];
  for (const operation of manifest?.ops ?? []) {
    const compiled = context.registry.operation(grant.integration, operation.id);
    if (compiled === undefined || !grantAllows(grant, compiled)) continue;
    const entry: PaletteOperation = { id: operation.id, label: operation.label, access: operation.access, args: { ...operation.args } };
    if (operation.confirm !== undefined) entry.confirm = operation.confirm;
    if (operation.destructive === true) entry.destructive = true;
    if (operation.page !== undefined) entry.page = compiled.paging?.arg === undefined ? {} : { arg: compiled.paging.arg };
    ops.push(entry);
  }
  return { status: "ok", integration: grant.integration, access: grant.access, ...(grant.account === undefined ? {} : { account: grant.account }), ops };
}
