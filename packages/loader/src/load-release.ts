import { loadRegistry, type LoadRegistryOptions, type ManifestFile } from "./load-registry.js";
import { RegistryError } from "./registry-error.js";
import type { Registry } from "./registry.js";

/** The part of a signed registry release (`@eleven-integrations/grants` `verifyRelease`) the loader needs. */
export interface ReleaseManifests {
  /** The registry hash the release claims for its manifests. */
  readonly hash: string;
  readonly integrations: readonly unknown[];
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
  if (registry.hash !== release.hash) {
    throw new RegistryError([
      { file: "(release)", path: "hash", message: `the release claims the hash ${release.hash}, but its manifests hash to ${registry.hash}` },
    ]);
  }
  return registry;
}
