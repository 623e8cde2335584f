import { createHash } from "node:crypto";
import { loadedManifestsOf, loadRegistry, type LoadRegistryOptions, type ManifestFile } from "./load-registry.js";
import { releaseManifestTexts } from "./release-manifest-texts.js";
import { RegistryError } from "./registry-error.js";
import type { Registry } from "./registry.js";
import type { LoadedManifest } from "./loaded-manifest.js";

/** The part of a signed registry release (`@eleven-integrations/grants` `verifyRelease`) the loader needs. */
export interface ReleaseManifests {
  /** The registry hash the release claims for its manifests. */
  readonly hash: string;
  readonly integrations: readonly unknown[];
  /**
   * The release's registry JSON exactly as it was read, `integrations` parsed from it
   * (`@eleven-integrations/grants` `ParsedRelease.registryText`). When the manifests' part of it
   * hashes to `hash`, each manifest's canonical JSON is taken from it rather than written again.
   */
  readonly text?: string | undefined;
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
  if (release.text !== undefined) takeCanonicalTexts(registry, release.integrations, release.text, release.hash);
  if (registry.hash !== release.hash) {
    throw new RegistryError([
      { file: "(release)", path: "hash", message: `the release claims the hash ${release.hash}, but its manifests hash to ${registry.hash}` },
    ]);
  }
  return registry;
}

/**
 * Gives each manifest its own text from the release as its canonical JSON, when that is sure to
 * be it: the text of the whole array hashes to the registry hash the release claims (the registry
 * hash is the sha-256 of the manifests' canonical JSON as an array), and each text is the one its
 * manifest was parsed from, in the registry's order. Otherwise nothing is taken, and the hash is
 * written from the manifests as for any load. A release `signRelease` wrote always qualifies.
 */
function takeCanonicalTexts(registry: Registry, integrations: readonly unknown[], text: string, claimed: string): void {
  const found = releaseManifestTexts(text);
  const entries = loadedManifestsOf(registry);
  if (found === undefined || found.manifests.length !== integrations.length || entries.length !== integrations.length) return;
  for (let index = 0; index < entries.length; index += 1) if ((entries[index] as LoadedManifest).manifest !== integrations[index]) return;
  if (createHash("sha256").update(found.array, "utf8").digest("hex") !== claimed) return;
  entries.forEach((entry, index) => entry.takeCanonicalText(found.manifests[index] as string));
}
