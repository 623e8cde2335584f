import { OP_ID_PATTERN, type Manifest } from "@eleven-integrations/schema";
import { BrokerError } from "../http/broker-error.js";

/** The most ops one connect may name (`?ops=`). */
export const MAX_CONNECT_OPS = 100;

/**
 * The ops a connect names (`?ops=mail.send,mail.draft`: the ops the member's grant will
 * include), each an op of the manifest, or an empty list when none are named. Anything
 * else is refused before a cookie or a state exists.
 */
export function connectOps(manifest: Manifest, value: string | undefined): string[] {
  if (value === undefined || value === "") return [];
  const ids = value.split(",");
  if (ids.length > MAX_CONNECT_OPS) throw new BrokerError("invalid_query", `ops names at most ${MAX_CONNECT_OPS} ops`);
  const known = new Set(manifest.ops.map((op) => op.id));
  for (const id of ids) {
    if (!OP_ID_PATTERN.test(id) || !known.has(id)) throw new BrokerError("invalid_query", `ops must name ops of ${manifest.name}, separated by commas`);
  }
  return [...new Set(ids)];
}

/**
 * The scopes a connect asks: the manifest's own (`auth.oauth.scopes`), then each scope an
 * op the connect names adds (`scopes` on the op), once each, in that order. An op's scopes
 * are asked only when a grant includes it (issue 38).
 */
export function connectScopes(manifest: Manifest, ops: readonly string[]): string[] {
  const scopes = [...(manifest.auth.oauth?.scopes ?? [])];
  const seen = new Set(scopes);
  for (const op of manifest.ops) {
    if (op.scopes === undefined || !ops.includes(op.id)) continue;
    for (const scope of op.scopes) {
      if (seen.has(scope)) continue;
      seen.add(scope);
      scopes.push(scope);
    }
  }
  return scopes;
}
