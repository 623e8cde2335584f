import { existsSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { loadRegistry, loadRegistryFromDir, type Registry } from "@eleven-integrations/loader";
import { manifestFiles, manifestsDir } from "@eleven-integrations/manifests";

/**
 * The manifest folder a command works on: `dir` as given, or its `integrations/`
 * subfolder when it is the manifests package itself, or the repository's manifests.
 */
export function manifestFolder(dir: string | undefined, cwd: string): string {
  if (dir === undefined) return manifestsDir;
  const absolute = resolve(cwd, dir);
  const nested = join(absolute, "integrations");
  return existsSync(nested) && statSync(nested).isDirectory() ? nested : absolute;
}

/** The registry from a folder, or the embedded one. */
export async function resolveRegistry(dir: string | undefined, cwd: string): Promise<Registry> {
  return dir === undefined ? loadRegistry(manifestFiles) : loadRegistryFromDir(manifestFolder(dir, cwd));
}
