import { createHash } from "node:crypto";
import { canonicalJson, type Manifest } from "@eleven-integrations/schema";
import type { CatalogEntry } from "./catalog.js";
import { compileBase } from "./compile-base.js";
import { compileOperation, type CompiledOperation } from "./compiled-operation.js";
import { compileProviderErrors } from "./compile-provider-errors.js";
import { manifestContent, sha256Hex } from "./manifest-hash.js";

/** One manifest as a registry holds it: validated, frozen, hashed and compiled, reusable by a later load. */
export interface LoadedManifest {
  readonly manifest: Manifest;
  /** UTF-8 of the RFC 8785 JSON of the manifest without `$schema`: what its hash and the registry's hash are taken over. */
  readonly canonicalBytes: Buffer;
  readonly hash: string;
  /** `hash` and `$schema`: two inputs with the same key load to the same manifest. */
  readonly contentKey: string;
  readonly operations: ReadonlyMap<string, CompiledOperation>;
  readonly catalogEntry: CatalogEntry;
  /** The text the manifest was parsed from, when it was given as text: the same text is reused without parsing. */
  readonly text: string | undefined;
}

/** The reuse key of a manifest's content: its hash and its editor-only `$schema`. */
export function contentKeyOf(hash: string, schema: unknown): string {
  return typeof schema === "string" ? `${hash} ${schema}` : hash;
}

/** The reuse key of raw JSON not validated yet, or undefined when it cannot be one of a loaded manifest. */
export function rawContentKey(json: unknown): string | undefined {
  if (json === null || typeof json !== "object" || Array.isArray(json)) return undefined;
  try {
    const { $schema, ...content } = json as Record<string, unknown>;
    return contentKeyOf(sha256Hex(canonicalJson(content)), $schema);
  } catch {
    return undefined;
  }
}

/** Freezes a copy of a valid manifest, hashes it and compiles each op once. */
export function loadManifest(valid: Manifest, text: string | undefined): LoadedManifest {
  const manifest = deepFreeze(structuredClone(valid));
  const content = manifestContent(manifest);
  const canonicalBytes = Buffer.from(canonicalJson(content), "utf8");
  const hash = createHash("sha256").update(canonicalBytes).digest("hex");
  return {
    manifest,
    canonicalBytes,
    hash,
    contentKey: contentKeyOf(hash, manifest.$schema),
    operations: compileOperations(manifest),
    catalogEntry: Object.freeze({ ...content, hash }),
    text,
  };
}

function compileOperations(manifest: Manifest): Map<string, CompiledOperation> {
  const errors = manifest.errors === undefined ? undefined : compileProviderErrors(manifest.errors);
  const base = compileBase(manifest.auth);
  return new Map(manifest.ops.map((op) => [op.id, compileOperation(manifest, op, errors, base)]));
}

export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const item of Object.values(value)) deepFreeze(item);
  }
  return value;
}
