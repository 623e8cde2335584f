import { createHash } from "node:crypto";
import type { Manifest } from "@eleven-integrations/schema";

/** The manifest as hashed and served: without the editor-only `$schema` key. */
export function manifestContent(manifest: Manifest): Omit<Manifest, "$schema"> {
  const { $schema: _editorSchema, ...content } = manifest;
  return content;
}

/** Lowercase hex sha-256 of a canonical JSON text. */
export function sha256Hex(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}
