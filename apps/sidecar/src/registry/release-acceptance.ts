import { ReleaseError, verifyRelease, type ReleaseBody, type ReleaseManifestBytes } from "@eleven-integrations/grants";
import { loadRegistryFromRelease, RegistryError, type Registry } from "@eleven-integrations/loader";
import type { RegistryInfo } from "./live-registry.js";
import type { HighWater } from "./high-water-mark.js";
import { SyncRefusal } from "./sync-refusal.js";

export interface AcceptedRelease {
  registry: Registry;
  release: ReleaseBody;
}

/**
 * The checks a release passes before a sidecar runs it, in order: a trusted
 * key signed it (size, shape and signature: `verifyRelease`), its sequence is
 * above the running one and at or above the build's floor (`rollback` otherwise; the running release itself,
 * same sequence and hash, is `undefined`: nothing to do), and every manifest
 * loads to its hash. Unchanged manifests are reused from `running`. Throws `SyncRefusal`.
 */
export function acceptRelease(
  bytes: Uint8Array,
  options: {
    keys: readonly string[];
    maxBytes: number;
    running: Registry;
    info: RegistryInfo;
    highWater?: HighWater | undefined;
    /** The lowest sequence this build runs (`registryFloor`): the embedded registry is newer than anything below it. */
    floor?: number | undefined;
  },
): AcceptedRelease | undefined {
  let release: ReleaseBody;
  let manifestBytes: ReleaseManifestBytes | undefined;
  try {
    ({ registry: release, manifestBytes } = verifyRelease(bytes, { trustedKeys: options.keys, maxBytes: options.maxBytes }));
  } catch (error) {
    if (ReleaseError.isInstance(error)) throw new SyncRefusal(error.code, error.message);
    throw error;
  }
  const { info } = options;
  if (release.sequence === info.sequence && release.hash === info.hash) return undefined;
  if (release.sequence <= info.sequence) {
    throw new SyncRefusal(
      "rollback",
      `release ${release.sequence} (registry ${short(release.hash)}) is not above the running release ${info.sequence}: an older release is never run again`,
    );
  }
  if (options.floor !== undefined && release.sequence < options.floor) {
    throw new SyncRefusal(
      "rollback",
      `release ${release.sequence} (registry ${short(release.hash)}) is below ${options.floor}, the oldest release this build runs: its embedded registry is newer`,
    );
  }
  // The newest release ever run here, kept apart from the cache: nothing older runs again, nor another registry at its sequence.
  const mark = options.highWater;
  if (mark !== undefined && (release.sequence < mark.sequence || (release.sequence === mark.sequence && release.hash !== mark.hash))) {
    throw new SyncRefusal(
      "rollback",
      `release ${release.sequence} (registry ${short(release.hash)}) is below the newest release this sidecar ran (${mark.sequence}, registry ${short(mark.hash)}): an older release is never run again`,
    );
  }
  try {
    return { registry: loadRegistryFromRelease({ ...release, manifestBytes }, { previous: options.running }), release };
  } catch (error) {
    if (!RegistryError.isInstance(error)) throw error;
    const first = error.issues[0];
    const more = error.issues.length > 1 ? ` (and ${error.issues.length - 1} more)` : "";
    throw new SyncRefusal("invalid_manifests", `release ${release.sequence} does not load: ${first?.file}: ${first?.path}: ${first?.message}${more}`);
  }
}

/** The first 12 hex digits of a hash, enough to tell releases apart in a log line. */
export function short(hash: string): string {
  return hash.slice(0, 12);
}
