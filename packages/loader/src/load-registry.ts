import { basename } from "node:path";
import { canonicalJson, parseManifest, type Manifest } from "@eleven-integrations/schema";
import type { Catalog } from "./catalog.js";
import { compileOperation, type CompiledOperation } from "./compiled-operation.js";
import { compileProviderErrors } from "./compile-provider-errors.js";
import { manifestContent, sha256Hex } from "./manifest-hash.js";
import { RegistryError, type RegistryIssue } from "./registry-error.js";
import type { Registry } from "./registry.js";

export interface ManifestFile {
  /** The file's name or path; its base name must be `<id>.json`. */
  readonly file: string;
  readonly json: unknown;
}

/**
 * Validates every manifest and builds the registry, all or nothing: one problem
 * anywhere and it throws a {@link RegistryError} listing every problem found.
 */
export function loadRegistry(files: readonly ManifestFile[]): Registry {
  return buildRegistry(files, []);
}

/** @internal Also used by loadRegistryFromDir to report read errors alongside manifest errors. */
export function buildRegistry(files: readonly ManifestFile[], earlierIssues: readonly RegistryIssue[]): Registry {
  const issues: RegistryIssue[] = [...earlierIssues];
  const manifests = new Map<string, Manifest>();
  const fileOfId = new Map<string, string>();
  if (files.length === 0 && issues.length === 0) issues.push({ file: "(registry)", path: "$", message: "no manifests to load" });

  for (const { file, json } of files) {
    const name = basename(file);
    if (!name.endsWith(".json")) issues.push({ file, path: "$", message: 'a manifest file must be named "<id>.json"' });
    // Checked on the raw JSON, so a manifest that fails the schema still reports a misnamed file.
    const claimedId = (json as { id?: unknown } | null)?.id;
    if (typeof claimedId === "string" && name !== `${claimedId}.json`) {
      issues.push({ file, path: "id", message: `id "${claimedId}" must equal the file's base name ("${name}")` });
    }
    const result = parseManifest(json);
    if (!result.ok) {
      for (const issue of result.issues) issues.push({ file, ...issue });
      continue;
    }
    const { id } = result.manifest;
    const first = fileOfId.get(id);
    if (first !== undefined) {
      issues.push({ file, path: "id", message: `id "${id}" is already used by ${first}` });
      continue;
    }
    fileOfId.set(id, file);
    manifests.set(id, result.manifest);
  }
  if (issues.length > 0) throw new RegistryError(issues);
  return createRegistry([...manifests.values()]);
}

function createRegistry(loaded: Manifest[]): Registry {
  const manifests = loaded.sort((a, b) => (a.id < b.id ? -1 : 1)).map((manifest) => deepFreeze(structuredClone(manifest)));
  const byId = new Map(manifests.map((manifest) => [manifest.id, manifest]));
  // The registry's canonical JSON is the array of the manifests' canonical JSON: serialise each once.
  const canonical = manifests.map((manifest) => canonicalJson(manifestContent(manifest)));
  const hashes = new Map(manifests.map((manifest, index) => [manifest.id, sha256Hex(canonical[index] as string)]));
  const operations = new Map<string, Map<string, CompiledOperation>>(
    manifests.map((manifest) => {
      const errors = manifest.errors === undefined ? undefined : compileProviderErrors(manifest.errors);
      return [manifest.id, new Map(manifest.ops.map((op) => [op.id, compileOperation(manifest, op, errors)]))];
    }),
  );
  const hash = sha256Hex(`[${canonical.join(",")}]`);
  const catalog: Catalog = deepFreeze({
    schema: 1,
    hash,
    integrations: manifests.map((manifest) => ({ ...manifestContent(manifest), hash: hashes.get(manifest.id) as string })),
  });
  const list = Object.freeze([...manifests]);

  return Object.freeze({
    hash,
    manifestHash: (id: string) => hashes.get(id),
    integrations: () => list,
    get: (id: string) => byId.get(id),
    operation: (id: string, opId: string) => operations.get(id)?.get(opId),
    catalog: () => catalog,
  });
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const item of Object.values(value)) deepFreeze(item);
  }
  return value;
}
