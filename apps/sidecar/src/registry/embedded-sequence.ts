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
  if (signedFile === null) return 0;
  let document: unknown;
  try {
    document = JSON.parse(readFileSync(signedFile, "utf8"));
  } catch {
    return 0;
  }
  const body = typeof document === "object" && document !== null ? (document as { registry?: unknown }).registry : undefined;
  if (typeof body !== "object" || body === null) return 0;
  const { hash, sequence } = body as { hash?: unknown; sequence?: unknown };
  return hash === registry.hash && Number.isSafeInteger(sequence) && (sequence as number) > 0 ? (sequence as number) : 0;
}
