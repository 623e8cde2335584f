import { basename } from "node:path";
import type { Catalog } from "./catalog.js";
import { LoadedManifest, rawContentKey } from "./loaded-manifest.js";
import { hashRegistry, type RegistryHashing } from "./registry-hash.js";
import { RegistryError, type RegistryIssue } from "./registry-error.js";
import type { Registry } from "./registry.js";
import { validateManifest } from "./validate-manifest.js";

/** A manifest already parsed from JSON. */
export interface ManifestFile {
  /** The file's name or path; its base name must be `<id>.json`. */
  readonly file: string;
  readonly json: unknown;
}

/** A manifest as the text of its file: parsed here, and not even parsed again when a `previous` registry loaded the same text. */
export interface ManifestText {
  /** The file's name or path; its base name must be `<id>.json`. */
  readonly file: string;
  readonly text: string;
}

export interface LoadRegistryOptions {
  /**
   * A registry loaded before (by this package). Each manifest whose content is
   * unchanged (same hash and `$schema`, or the very same text for the same file)
   * is taken from it as it is, validated and compiled already, so a reload that
   * changed one manifest does one manifest's work. Every cross-manifest rule
   * (unique ids, file names) is still checked on the whole set.
   */
  readonly previous?: Registry | undefined;
  /**
   * The parsed manifests (`{ file, json }`) are handed over to the registry: each valid
   * one is frozen in place and kept, not copied first. For JSON parsed just for this load
   * (a release document); the caller must not change it afterwards. Being exactly what
   * `JSON.parse` returned, it is validated as the texts this package parses itself are
   * (the fast path's parsed-JSON mode: no check for symbol or hidden keys, or keys on arrays,
   * which JSON cannot hold). Default false.
   */
  readonly adopt?: boolean | undefined;
}

interface Reusable {
  /** The manifests, sorted by id. */
  readonly entries: readonly LoadedManifest[];
  /** By content key: made when a reload is first given parsed JSON (hashing every manifest of this registry). */
  byKey(): ReadonlyMap<string, LoadedManifest>;
  readonly byFile: ReadonlyMap<string, LoadedManifest>;
  /** The registry hash's saved states, once something asked for the hash. */
  hashing(): RegistryHashing<LoadedManifest> | undefined;
}

/** What each registry this package built was made of, for a later load's `previous`. */
const reusable = new WeakMap<Registry, Reusable>();

/** @internal The manifests of a registry this package built, sorted by id (as its hash takes them). */
export function loadedManifestsOf(registry: Registry): readonly LoadedManifest[] {
  return reusable.get(registry)?.entries ?? [];
}

/**
 * Validates every manifest and builds the registry, all or nothing: one problem
 * anywhere and it throws a {@link RegistryError} listing every problem found.
 */
export function loadRegistry(files: readonly (ManifestFile | ManifestText)[], options: LoadRegistryOptions = {}): Registry {
  return buildRegistry(files, [], options);
}

/** @internal Also used by loadRegistryFromDir to report read errors alongside manifest errors. */
export function buildRegistry(
  files: readonly (ManifestFile | ManifestText)[],
  earlierIssues: readonly RegistryIssue[],
  options: LoadRegistryOptions = {},
): Registry {
  const issues: RegistryIssue[] = [...earlierIssues];
  const previous = options.previous === undefined ? undefined : reusable.get(options.previous);
  const entries: LoadedManifest[] = [];
  const fileOfId = new Map<string, string>();
  const byFile = new Map<string, LoadedManifest>();
  if (files.length === 0 && issues.length === 0) issues.push({ file: "(registry)", path: "$", message: "no manifests to load" });

  for (const input of files) {
    const { file } = input;
    // The same text under the same file name as before: its name and content passed every check then.
    const entry = unchangedText(input, previous) ?? loadNamed(input, previous, issues, options.adopt === true);
    if (entry === undefined) continue;
    const { id } = entry.manifest;
    const first = fileOfId.get(id);
    if (first !== undefined) {
      issues.push({ file, path: "id", message: `id "${id}" is already used by ${first}` });
      continue;
    }
    fileOfId.set(id, file);
    entries.push(entry);
    byFile.set(file, entry);
  }
  if (issues.length > 0) throw new RegistryError(issues);
  return createRegistry(entries, byFile, previous);
}

function unchangedText(input: ManifestFile | ManifestText, previous: Reusable | undefined): LoadedManifest | undefined {
  if (previous === undefined || !("text" in input)) return undefined;
  const before = previous.byFile.get(input.file);
  return before !== undefined && before.text === input.text ? before : undefined;
}

function loadNamed(input: ManifestFile | ManifestText, previous: Reusable | undefined, issues: RegistryIssue[], adopt: boolean): LoadedManifest | undefined {
  const { file } = input;
  const name = basename(file);
  if (!name.endsWith(".json")) issues.push({ file, path: "$", message: 'a manifest file must be named "<id>.json"' });
  return loadOne(input, name, previous, issues, adopt);
}

/** One file: reused from `previous` when its content is unchanged, else validated and compiled. Problems go to `issues`. */
function loadOne(
  input: ManifestFile | ManifestText,
  name: string,
  previous: Reusable | undefined,
  issues: RegistryIssue[],
  adopt: boolean,
): LoadedManifest | undefined {
  const { file } = input;
  let json: unknown;
  let text: string | undefined;
  // Parsed here: the registry owns it. Given parsed: the caller does, so a valid one is copied before it is frozen.
  let owned = adopt;
  if ("text" in input) {
    owned = true;
    text = input.text;
    try {
      json = JSON.parse(text);
    } catch (error) {
      issues.push({ file, path: "$", message: `invalid JSON: ${(error as Error).message}` });
      return undefined;
    }
  } else {
    json = input.json;
  }
  // Checked on the raw JSON, so a manifest that fails the schema still reports a misnamed file.
  const claimedId = (json as { id?: unknown } | null)?.id;
  if (typeof claimedId === "string" && name !== `${claimedId}.json`) {
    issues.push({ file, path: "id", message: `id "${claimedId}" must equal the file's base name ("${name}")` });
  }
  if (previous !== undefined) {
    const key = rawContentKey(json);
    const before = key === undefined ? undefined : previous.byKey().get(key);
    if (before !== undefined) return text === undefined || before.text === text ? before : before.withText(text);
  }
  const result = validateManifest(json, owned);
  if (!result.ok) {
    for (const issue of result.issues) issues.push({ file, ...issue });
    return undefined;
  }
  // zod's answer is its own copy; the fast path's is the input itself.
  const manifest = owned || result.manifest !== json ? result.manifest : structuredClone(result.manifest);
  return new LoadedManifest(manifest, text);
}

function createRegistry(entries: LoadedManifest[], byFile: Map<string, LoadedManifest>, previous: Reusable | undefined): Registry {
  entries.sort((a, b) => (a.manifest.id < b.manifest.id ? -1 : 1));
  const byId = new Map<string, LoadedManifest>();
  for (const entry of entries) byId.set(entry.manifest.id, entry);
  // Hashing, the catalog and the content keys are made on first use: a sidecar that asks for one manifest's hash hashes one manifest.
  let hashing: RegistryHashing<LoadedManifest> | undefined;
  let catalog: Catalog | undefined;
  let byKey: Map<string, LoadedManifest> | undefined;
  const registryHash = (): string => {
    // The registry's canonical JSON is the array of the manifests' canonical JSON, each serialised once.
    hashing ??= hashRegistry(entries, previous?.hashing());
    return hashing.hash;
  };
  const list = Object.freeze(entries.map((entry) => entry.manifest));

  const registry: Registry = Object.freeze({
    get hash() {
      return registryHash();
    },
    manifestHash: (id: string) => byId.get(id)?.hash,
    manifestJson: (id: string) => {
      const entry = byId.get(id);
      return entry === undefined ? undefined : copyOf(entry.canonicalBytes);
    },
    integrations: () => list,
    get: (id: string) => byId.get(id)?.manifest,
    operation: (id: string, opId: string) => byId.get(id)?.operation(opId),
    catalog: () => {
      catalog ??= Object.freeze({
        schema: 1 as const,
        hash: registryHash(),
        integrations: Object.freeze(entries.map((entry) => entry.catalogEntry)) as Catalog["integrations"],
      });
      return catalog;
    },
  });
  reusable.set(registry, {
    entries,
    byKey: () => (byKey ??= new Map(entries.map((entry) => [entry.contentKey, entry]))),
    byFile,
    hashing: () => hashing,
  });
  return registry;
}

/**
 * A copy of `bytes`. `Buffer.from(buffer)` copies a Buffer through the generic typed-array
 * path, about twenty times slower than setting the bytes into a new one (Node.js 20).
 */
function copyOf(bytes: Buffer): Buffer {
  const copy = Buffer.allocUnsafe(bytes.length);
  copy.set(bytes);
  return copy;
}
