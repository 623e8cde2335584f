import { readFileSync } from "node:fs";
import type { Registry } from "@eleven-integrations/loader";

/**
 * The release sequence the embedded registry was published as: the `sequence` of
 * the signed release the manifests package ships beside its code
 * (`signedRegistryFile`, written by `pnpm release`), when that release's hash is
 * the embedded registry's. 0 for an unsigned build or a file that does not match.
 * A sidecar with no cache runs its embedded registry at this sequence, so a
 * release older than the one it was built from is a rollback (review finding 7).
 * The file ships inside the sidecar's own code, so its signature adds nothing here;
 * a release fetched later is verified as always.
 */
export function embeddedReleaseSequence(registry: Registry, signedFile: string | null): number {
  const shipped = shippedRelease(signedFile);
  return shipped !== undefined && shipped.hash === registry.hash ? shipped.sequence : 0;
}

/**
 * The lowest release sequence a sidecar built with `registry` may run (third review,
 * finding 11: a fresh sidecar from an unsigned build still took an older signed release).
 * A signed build runs its embedded registry at its own sequence, and the running
 * sequence already refuses anything at or below it: its floor is that sequence plus one.
 * An unsigned build whose manifests package still ships the signed release it grew
 * from (the manifests changed since `pnpm release`) is newer than that release: its
 * floor is that release's sequence plus one. `minSequence` (`registryMinSequence`, set by
 * the operator) raises the floor further; with neither, the floor is 0 (nothing known).
 */
export function registryFloor(registry: Registry, signedFile: string | null, minSequence = 0): number {
  const shipped = shippedRelease(signedFile);
  return Math.max(shipped === undefined ? 0 : shipped.sequence + 1, minSequence);
}

/** The hash and sequence of the signed release the manifests package ships, or undefined for none or a damaged file. */
function shippedRelease(signedFile: string | null): { hash: string; sequence: number } | undefined {
  if (signedFile === null) return undefined;
  let document: unknown;
  try {
    document = JSON.parse(readFileSync(signedFile, "utf8"));
  } catch {
    return undefined;
  }
  const body = typeof document === "object" && document !== null ? (document as { registry?: unknown }).registry : undefined;
  if (typeof body !== "object" || body === null) return undefined;
  const { hash, sequence } = body as { hash?: unknown; sequence?: unknown };
  if (typeof hash !== "string" || !Number.isSafeInteger(sequence) || (sequence as number) <= 0) return undefined;
  return { hash, sequence: sequence as number };
}
