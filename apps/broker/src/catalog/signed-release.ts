import { createHash } from "node:crypto";
import { parseRelease, ReleaseError, verifyParsedRelease, type ParsedRelease } from "@eleven-integrations/grants";
import { loadRegistryFromRelease, RegistryError, type Registry } from "@eleven-integrations/loader";
import { BrokerConfigError } from "../config/config-error.js";

/** The signed registry release a broker serves at `GET /registry.signed`, byte for byte. */
export interface ServedRelease {
  /** The document exactly as configured. */
  readonly body: Buffer;
  /** Strong ETag: the sha-256 of `body`, quoted. */
  readonly etag: string;
  readonly sequence: number;
  /** The registry the release holds: what `GET /registry`, `/registry/:id` and the page serve. */
  readonly registry: Registry;
  /**
   * The document as read once, for {@link checkReleaseSignature} when the app is ready; undefined
   * once checked, or at once when no release key is configured: nothing else needs it.
   */
  parsed: ParsedRelease | undefined;
}

/**
 * Checks a release document as the broker starts: its shape, and that its
 * manifests load to its `hash` (sidecars check the signature themselves; see
 * {@link checkReleaseSignature}). Throws `BrokerConfigError` naming why.
 */
export function loadServedRelease(document: string | Uint8Array, previous?: Registry): ServedRelease {
  // A copy, so the caller's bytes changing later changes nothing served (set: Buffer.from(buffer) is many times slower on megabytes).
  const body = typeof document === "string" ? Buffer.from(document, "utf8") : Buffer.allocUnsafe(document.byteLength);
  if (typeof document !== "string") body.set(document);
  let registry: Registry;
  let parsed: ParsedRelease;
  try {
    // The broker's own configuration: no size limit but the machine's (sidecars apply theirs).
    parsed = parseRelease(body, { maxBytes: Number.POSITIVE_INFINITY });
    registry = loadRegistryFromRelease({ ...parsed.document.registry, manifestBytes: parsed.manifestBytes }, { previous });
  } catch (error) {
    if (ReleaseError.isInstance(error)) throw new BrokerConfigError([{ path: "release", message: `is not a registry release: ${error.message}` }]);
    if (RegistryError.isInstance(error)) {
      throw new BrokerConfigError(error.issues.map((issue) => ({ path: `release: ${issue.file}: ${issue.path}`, message: issue.message })));
    }
    throw error;
  }
  return { body, etag: `"${createHash("sha256").update(body).digest("hex")}"`, sequence: parsed.document.registry.sequence, registry, parsed };
}

/** Refuses (BrokerConfigError) a release that none of `releaseKeys` signed; needs libsodium ready. */
export function checkReleaseSignature(release: ServedRelease, releaseKeys: readonly string[]): void {
  const { parsed } = release;
  if (parsed === undefined) throw new Error("the release's signature was checked already, or no release key asked for it");
  try {
    verifyParsedRelease(parsed, { trustedKeys: releaseKeys });
  } catch (error) {
    if (!ReleaseError.isInstance(error)) throw error;
    throw new BrokerConfigError([{ path: "release", message: `does not verify with releaseKeys (${error.code}): ${error.message}` }]);
  }
  release.parsed = undefined;
}
