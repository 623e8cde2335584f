import { createHash } from "node:crypto";
import { loadedManifestsOf, loadRegistry, type LoadRegistryOptions, type ManifestFile } from "./load-registry.js";
import { RegistryError } from "./registry-error.js";
import type { Registry } from "./registry.js";
import type { LoadedManifest } from "./loaded-manifest.js";

/** The part of a signed registry release (`@eleven-integrations/grants` `verifyRelease`) the loader needs. */
export interface ReleaseManifests {
  /** The registry hash the release claims for its manifests. */
  readonly hash: string;
  readonly integrations: readonly unknown[];
  /**
   * The UTF-8 of each manifest exactly as it stands in the release, `integrations` parsed from
   * these very bytes in the same order, and of their array (`@eleven-integrations/grants`
   * `ParsedRelease.manifestBytes`). When the array's bytes hash to `hash`, each manifest's
   * canonical JSON is a copy of its bytes rather than written again.
   */
  readonly manifestBytes?: ReleaseManifestBytes | undefined;
}

/** The manifests' bytes of a release as read, and of their array (`[`, the manifests joined by `,`, `]`). */
export interface ReleaseManifestBytes {
  readonly manifests: readonly Uint8Array[];
  readonly array: Uint8Array;
}

const ID = /^[a-z][a-z0-9-]{0,39}$/;

/**
 * Loads the manifests of a registry release, all or nothing, and checks the
 * release's `hash` is the hash of what loaded. Each manifest is reported as the
 * file `<id>.json` (or `integrations[<index>].json` when it has no usable id).
 * Verify the release's signature before calling this. The release's manifest objects
 * become the registry's (frozen in place, not copied): pass a release parsed for this
 * load, and do not change it afterwards. Throws {@link RegistryError}.
 */
export function loadRegistryFromRelease(release: ReleaseManifests, options: LoadRegistryOptions = {}): Registry {
  if (!Array.isArray(release.integrations)) {
    throw new RegistryError([{ file: "(release)", path: "integrations", message: "must be an array of manifests" }]);
  }
  const files: ManifestFile[] = release.integrations.map((json, index) => {
    const id = (json as { id?: unknown } | null)?.id;
    return { file: typeof id === "string" && ID.test(id) ? `${id}.json` : `integrations[${index}].json`, json };
  });
  const registry = loadRegistry(files, { adopt: true, ...options });
  if (release.manifestBytes !== undefined) takeCanonicalBytes(registry, release.integrations, release.manifestBytes, release.hash);
  if (registry.hash !== release.hash) {
    throw new RegistryError([
      { file: "(release)", path: "hash", message: `the release claims the hash ${release.hash}, but its manifests hash to ${registry.hash}` },
    ]);
  }
  return registry;
}

/**
 * Gives each manifest its own bytes from the release as its canonical JSON, when that is sure to
 * be it: the bytes of the whole array hash to the registry hash the release claims (the registry
 * hash is the sha-256 of the manifests' canonical JSON as an array), and each manifest's bytes are
 * the ones it was parsed from, in the registry's order. Otherwise nothing is taken, and the hash is
 * written from the manifests as for any load. A release `signRelease` wrote always qualifies.
 */
function takeCanonicalBytes(registry: Registry, integrations: readonly unknown[], bytes: ReleaseManifestBytes, claimed: string): void {
  const entries = loadedManifestsOf(registry);
  if (bytes.manifests.length !== integrations.length || entries.length !== integrations.length) return;
  for (let index = 0; index < entries.length; index += 1) if ((entries[index] as LoadedManifest).manifest !== integrations[index]) return;
  if (createHash("sha256").update(bytes.array).digest("hex") !== claimed) return;
  entries.forEach((entry, index) => {
    entry.takeCanonicalBytes(bytes.manifests[index] as Uint8Array);
  });
}
