export { loadRegistry, type ManifestFile } from "./load-registry.js";
export { loadRegistryFromDir } from "./load-registry-from-dir.js";
export { RegistryError, type RegistryIssue } from "./registry-error.js";
export type { Registry } from "./registry.js";
export type { Catalog, CatalogEntry } from "./catalog.js";
export type { CompiledOperation } from "./compiled-operation.js";
export type { CompiledArg } from "./compile-args.js";
export { compilePick, PickError, MAX_PICK_DEPTH, type PickAccessor } from "./compile-pick.js";
