import type { Manifest } from "@eleven-integrations/schema";
import type { Catalog } from "./catalog.js";
import type { CompiledOperation } from "./compiled-operation.js";

/** A loaded, frozen registry: every manifest valid, every op compiled. */
export interface Registry {
  /** Lowercase hex sha-256 of the RFC 8785 JSON of the manifests sorted by id. */
  readonly hash: string;
  /** The hash a grant carries for one manifest, or undefined for an unknown id. */
  manifestHash(id: string): string | undefined;
  /** A copy of the UTF-8 RFC 8785 JSON of the manifest without `$schema` (what `manifestHash` is taken over), or undefined for an unknown id. */
  manifestJson(id: string): Buffer | undefined;
  /** Every manifest, sorted by id. */
  integrations(): readonly Manifest[];
  get(id: string): Manifest | undefined;
  operation(id: string, opId: string): CompiledOperation | undefined;
  catalog(): Catalog;
}
