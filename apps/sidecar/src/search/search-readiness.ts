import { GrantError, type Grant } from "@eleven-integrations/grants";
import type { Registry } from "@eleven-integrations/loader";
import type { Manifest, Operation } from "@eleven-integrations/schema";
import { createSearchIndex, type OperationHit, type SearchIndex } from "@eleven-integrations/search";
import type { GrantStatus, ReadinessHit, SearchAnswer, SearchBody } from "@eleven-integrations/sidecar-protocol";
import type { GrantOpener } from "../run/grant-opener.js";
import type { SharedState } from "../state/shared-state.js";
import { REVOKED_REFUSAL } from "../state/state-refusals.js";

/** One ranked op with its readiness, as the contract describes it. */
type SearchResultEntry = ReadinessHit;

/** A grant as far as it could be read: valid, expired, or for another version of the manifest. */
interface KnownGrant {
  index: number;
  state: "valid" | "expired" | "manifest_changed";
  integration: string;
  access: "read" | "write";
  ops: readonly string[] | undefined;
  exp: number;
}

export interface SearchContext {
  registry: Registry;
  openGrant: GrantOpener;
  /** Revocations: a revoked grant runs nothing, so it makes nothing ready. */
  state: Pick<SharedState, "isRevoked">;
}

const DEFAULT_LIMIT = 20;

/**
 * `POST /v1/search`: the ops of this sidecar's registry ranked for `q` by the
 * shared catalog index, each with whether one of `grants` runs it now (`ready`)
 * or what is missing, most specific first: a grant that would run it has
 * expired (`grant_expired`) or was given for a manifest that changed since
 * (`manifest_changed`); a grant to the integration only reads
 * (`needs_write_grant`); no grant covers it (`needs_grant`).
 */
export function createSearch(): (body: SearchBody, context: SearchContext) => Promise<SearchAnswer> {
  let cached: { hash: string; index: SearchIndex } | undefined;
  const indexOf = (registry: Registry): SearchIndex => {
    // A synced registry can replace the one this app started with: the index follows its hash.
    if (cached === undefined || cached.hash !== registry.hash) cached = { hash: registry.hash, index: createSearchIndex(registry.integrations()) };
    return cached.index;
  };

  return async (body, context) => {
    const { known, statuses } = await readGrants(body.grants, context);
    const hits = indexOf(context.registry).search(body.q, {
      kind: "op",
      category: body.category,
      access: body.access,
      limit: body.limit ?? DEFAULT_LIMIT,
    }) as OperationHit[];
    const results = hits.map((hit) => {
      const manifest = context.registry.get(hit.integration) as Manifest;
      const operation = manifest.ops.find((candidate) => candidate.id === hit.op) as Operation;
      const entry: SearchResultEntry = {
        integration: hit.integration,
        name: hit.name,
        category: hit.category,
        op: hit.op,
        label: hit.label,
        access: hit.access,
        destructive: hit.destructive,
        score: hit.score,
        ...readiness(
          manifest,
          operation,
          known.filter((grant) => grant.integration === hit.integration),
        ),
      };
      return entry;
    });
    return { status: "ok", query: { q: body.q, category: body.category ?? null, access: body.access ?? null }, results, grants: statuses };
  };
}

async function readGrants(sealed: readonly string[], context: SearchContext): Promise<{ known: KnownGrant[]; statuses: GrantStatus[] }> {
  const known: KnownGrant[] = [];
  const statuses: GrantStatus[] = [];
  for (const [index, token] of sealed.entries()) {
    let grant: Grant;
    try {
      grant = context.openGrant(token);
    } catch (error) {
      if (!GrantError.isInstance(error)) throw error;
      if (error.code === "expired" && error.grant !== undefined) {
        const summary = error.grant;
        known.push({ index, state: "expired", integration: summary.integration, access: summary.access, ops: summary.ops, exp: summary.exp });
        statuses.push({ index, status: "error", integration: summary.integration, code: "grant_expired", message: "the grant has expired" });
      } else {
        statuses.push({ index, status: "error", integration: null, code: "grant_invalid", message: `grant refused (${error.code}): ${error.message}` });
      }
      continue;
    }
    const current = context.registry.manifestHash(grant.integration);
    if (current === undefined) {
      statuses.push({
        index,
        status: "error",
        integration: grant.integration,
        code: "grant_invalid",
        message: `this sidecar does not run the integration ${grant.integration}`,
      });
      continue;
    }
    // Searching runs nothing: what this sidecar knows is enough while the shared store is down.
    if (await context.state.isRevoked({ gid: grant.gid, member: grant.iss }, "local-ok")) {
      statuses.push({ index, status: "error", integration: grant.integration, code: "grant_invalid", message: REVOKED_REFUSAL.message });
      continue;
    }
    const state = current === grant.manifest_hash ? "valid" : "manifest_changed";
    known.push({ index, state, integration: grant.integration, access: grant.access, ops: grant.ops, exp: grant.exp });
    if (state === "valid") {
      statuses.push({
        index,
        status: "ok",
        integration: grant.integration,
        access: grant.access,
        ...(grant.ops === undefined ? {} : { ops: [...grant.ops] }),
        exp: grant.exp,
      });
    } else {
      statuses.push({
        index,
        status: "error",
        integration: grant.integration,
        code: "manifest_changed",
        message: `the ${grant.integration} manifest changed since the member granted it`,
      });
    }
  }
  return { known, statuses };
}

/** True when a grant of this access and allow-list would run the op (its validity aside). */
function covers(grant: KnownGrant, operation: Operation): boolean {
  if (grant.ops !== undefined && !grant.ops.includes(operation.id)) return false;
  return grant.access === "write" || operation.access === "read";
}

function readiness(manifest: Manifest, operation: Operation, grants: readonly KnownGrant[]): Pick<SearchResultEntry, "readiness" | "next_action" | "grant"> {
  const name = manifest.name;
  const ready = grants.find((grant) => grant.state === "valid" && covers(grant, operation));
  if (ready !== undefined) {
    const how = operation.access === "write" ? ", then show the member the confirm line it answers and run it again with their confirmation" : "";
    return { readiness: "ready", grant: ready.index, next_action: `Run it: POST /v1/run with grants[${ready.index}] and op ${operation.id}${how}.` };
  }
  const expired = grants.find((grant) => grant.state === "expired" && covers(grant, operation));
  if (expired !== undefined) {
    return {
      readiness: "grant_expired",
      grant: expired.index,
      next_action: `Ask the member for a fresh ${name} grant: the one given expired at ${new Date(expired.exp * 1000).toISOString()}.`,
    };
  }
  const changed = grants.find((grant) => grant.state === "manifest_changed" && covers(grant, operation));
  if (changed !== undefined) {
    return {
      readiness: "manifest_changed",
      grant: changed.index,
      next_action: `Ask the member for a fresh ${name} grant: the ${name} integration changed since it was granted, and the member should see what it does now.`,
    };
  }
  const readOnly = grants.find(
    (grant) =>
      grant.state === "valid" && grant.access === "read" && operation.access === "write" && (grant.ops === undefined || grant.ops.includes(operation.id)),
  );
  if (readOnly !== undefined) {
    return {
      readiness: "needs_write_grant",
      grant: readOnly.index,
      next_action: `Ask the member for a write grant to ${name}: the grant given only reads, and ${operation.id} (${operation.label}) writes.`,
    };
  }
  return {
    readiness: "needs_grant",
    next_action: needsGrantAction(
      manifest,
      operation,
      grants.some((grant) => grant.state === "valid"),
    ),
  };
}

function needsGrantAction(manifest: Manifest, operation: Operation, hasOtherGrant: boolean): string {
  const access = operation.access;
  const connect =
    manifest.auth.kind === "pat"
      ? ` with a personal token (${manifest.auth.pat_help ?? "from the provider"})`
      : manifest.auth.kind === "oauth"
        ? " after connecting it in the messenger"
        : ` after connecting it in the messenger or with a personal token (${manifest.auth.pat_help ?? "from the provider"})`;
  if (hasOtherGrant) return `Ask the member for a ${manifest.name} grant that includes ${operation.id} (${operation.label}): the grant given does not list it.`;
  return `Ask the member to grant this bot ${access} access to ${manifest.name}${connect}.`;
}
