import type { RunArgs } from "@eleven-integrations/schema";
import type { EnvelopeError } from "@eleven-integrations/executor";
import type { FileStore } from "../files/file-store.js";

export type ResolvedFiles = { readonly ok: true; readonly args: RunArgs } | { readonly ok: false; readonly error: EnvelopeError };

/**
 * Every `{ sha256 }` file value becomes the stored file (`{ name, content_type, base64 }`) before
 * the executor sees it. A hash the folder does not hold (never kept, expired, or its bytes changed)
 * is `invalid_args`: nothing is sent. The member approved the hash, so only those bytes go.
 */
export async function resolveFiles(args: RunArgs, store: FileStore | undefined): Promise<ResolvedFiles> {
  let resolved: Record<string, RunArgs[string]> | undefined;
  for (const [name, value] of Object.entries(args)) {
    if (typeof value !== "object" || Array.isArray(value) || !("sha256" in value) || Object.keys(value).length !== 1) continue;
    const file = store === undefined ? undefined : await store.get(value.sha256);
    if (file === undefined) {
      return {
        ok: false,
        error: {
          code: "invalid_args",
          message: `the file of arg "${name}" (sha256 ${value.sha256.slice(0, 12)}…) is not in the sidecar's file folder`,
          next_action: "Send the file inline ({ name, content_type, base64 }) or download it again.",
        },
      };
    }
    resolved ??= { ...args };
    resolved[name] = { name: file.meta.name, content_type: file.meta.content_type, base64: file.bytes.toString("base64") };
  }
  return { ok: true, args: resolved ?? args };
}
