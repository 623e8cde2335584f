import { createHash } from "node:crypto";
import type { CatalogEntry, Registry } from "@eleven-integrations/loader";

/** A catalog entry as the broker serves it: OAuth integrations say whether this broker can connect them. */
export type ServedCatalogEntry = CatalogEntry & { oauth_available?: boolean };

/** The body of `GET /registry`. */
export interface ServedCatalog {
  schema: 1;
  hash: string;
  integrations: ServedCatalogEntry[];
}

/** True when the integration's manifest has an OAuth block and the broker holds an app for it. */
export function oauthAvailable(entry: CatalogEntry, oauthApps: Readonly<Record<string, unknown>>): boolean {
  return entry.auth.oauth !== undefined && Object.hasOwn(oauthApps, entry.id);
}

/**
 * The registry's catalog, each OAuth integration marked `oauth_available`, and
 * the tag its ETags derive from: the registry hash, suffixed when some OAuth app
 * is missing, since the served bytes then depend on this broker's configuration.
 */
export function servedCatalog(registry: Registry, oauthApps: Readonly<Record<string, unknown>>): { catalog: ServedCatalog; tag: string } {
  const source = registry.catalog();
  const integrations = source.integrations.map((entry) => markAvailability(entry, oauthApps));
  const unavailable = integrations.filter((entry) => entry.oauth_available === false).map((entry) => entry.id);
  return { catalog: { schema: 1, hash: source.hash, integrations }, tag: availabilityTag(source.hash, unavailable) };
}

/** One served entry and its ETag tag (the manifest hash, suffixed when its OAuth app is missing). */
export function servedEntry(entry: CatalogEntry, oauthApps: Readonly<Record<string, unknown>>): { entry: ServedCatalogEntry; tag: string } {
  const served = markAvailability(entry, oauthApps);
  return { entry: served, tag: availabilityTag(entry.hash, served.oauth_available === false ? [entry.id] : []) };
}

function markAvailability(entry: CatalogEntry, oauthApps: Readonly<Record<string, unknown>>): ServedCatalogEntry {
  return entry.auth.oauth === undefined ? entry : { ...entry, oauth_available: oauthAvailable(entry, oauthApps) };
}

function availabilityTag(hash: string, unavailable: readonly string[]): string {
  if (unavailable.length === 0) return hash;
  return `${hash}-${createHash("sha256").update(unavailable.join(",")).digest("hex").slice(0, 12)}`;
}
