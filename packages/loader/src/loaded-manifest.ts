import { createHash } from "node:crypto";
import { canonicalJson, type Manifest, deepFreeze } from "@eleven-integrations/schema";
import type { CatalogEntry } from "./catalog.js";
import { compileBase } from "./compile-base.js";
import { compileOperation, type CompiledOperation } from "./compiled-operation.js";
import { compileProviderErrors } from "./compile-provider-errors.js";
import { manifestContent, sha256Hex } from "./manifest-hash.js";

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

/**
 * One manifest as a registry holds it: validated and frozen at load; its
 * canonical bytes, hash, catalog entry and compiled ops are made the first time
 * something asks for them (each once), so a load does no work a caller never
 * uses and holds no copy of what it did not need.
 */
export class LoadedManifest {
  readonly manifest: Manifest;
  /** The text the manifest was parsed from, when it was given as text: the same text is reused without parsing. */
  readonly text: string | undefined;
  #canonicalBytes: Buffer | undefined;
  #hash: string | undefined;
  #operations: Map<string, CompiledOperation> | undefined;
  #catalogEntry: CatalogEntry | undefined;

  /** `manifest` must be valid and owned by the registry (no one else holds it): it is frozen in place. */
  constructor(manifest: Manifest, text: string | undefined) {
    this.manifest = deepFreeze(manifest);
    this.text = text;
  }

  /** The same manifest for another text that parses to it. */
  withText(text: string | undefined): LoadedManifest {
    const copy = new LoadedManifest(this.manifest, text);
    copy.#canonicalBytes = this.#canonicalBytes;
    copy.#hash = this.#hash;
    copy.#operations = this.#operations;
    copy.#catalogEntry = this.#catalogEntry;
    return copy;
  }

  /** UTF-8 of the RFC 8785 JSON of the manifest without `$schema`: what its hash and the registry's hash are taken over. */
  get canonicalBytes(): Buffer {
    if (this.#canonicalBytes === undefined) {
      this.#canonicalBytes = Buffer.from(canonicalJson(manifestContent(this.manifest)), "utf8");
    }
    return this.#canonicalBytes;
  }

  /**
   * Takes a copy of `bytes` as the manifest's canonical JSON instead of writing it, unless it was made
   * already. Only for the bytes the manifest was parsed from, known to be canonical: `loadRegistryFromRelease`
   * gives each manifest its bytes from a release whose array of them hashes to the registry hash it claims.
   */
  takeCanonicalBytes(bytes: Uint8Array): void {
    if (this.#canonicalBytes !== undefined || this.manifest.$schema !== undefined) return;
    const copy = Buffer.allocUnsafe(bytes.length);
    copy.set(bytes);
    this.#canonicalBytes = copy;
  }

  get hash(): string {
    this.#hash ??= createHash("sha256").update(this.canonicalBytes).digest("hex");
    return this.#hash;
  }

  /** `hash` and `$schema`: two inputs with the same key load to the same manifest. */
  get contentKey(): string {
    return contentKeyOf(this.hash, this.manifest.$schema);
  }

  get catalogEntry(): CatalogEntry {
    this.#catalogEntry ??= Object.freeze({ ...manifestContent(this.manifest), hash: this.hash });
    return this.#catalogEntry;
  }

  /** The op compiled, or undefined for an unknown op id; every op of the manifest is compiled on the first call. */
  operation(opId: string): CompiledOperation | undefined {
    this.#operations ??= compileOperations(this.manifest);
    return this.#operations.get(opId);
  }
}

function compileOperations(manifest: Manifest): Map<string, CompiledOperation> {
  const errors = manifest.errors === undefined ? undefined : compileProviderErrors(manifest.errors);
  const base = compileBase(manifest.auth);
  return new Map(manifest.ops.map((op) => [op.id, compileOperation(manifest, op, errors, base)]));
}
