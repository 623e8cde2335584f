import { readdir, readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { buildRegistry, type LoadRegistryOptions, type ManifestText } from "./load-registry.js";
import { RegistryError, type RegistryIssue } from "./registry-error.js";
import type { Registry } from "./registry.js";

/** A manifest is a few KiB; anything this large is a mistake, refused before parsing. */
const MAX_MANIFEST_BYTES = 256 * 1024;

/**
 * Loads every `*.json` file directly in `dir` (not hidden, not in subfolders),
 * all or nothing: unreadable files and JSON syntax errors are reported with every
 * manifest problem in one {@link RegistryError}. With `previous`, a file whose
 * text is unchanged is neither parsed nor validated again.
 */
export async function loadRegistryFromDir(dir: string, options: LoadRegistryOptions = {}): Promise<Registry> {
  let names: string[];
  try {
    names = (await readdir(dir)).filter((name) => name.endsWith(".json") && !name.startsWith(".")).sort();
  } catch (error) {
    throw new RegistryError([{ file: dir, path: "$", message: `cannot read the folder: ${(error as NodeJS.ErrnoException).code ?? "error"}` }]);
  }
  if (names.length === 0) throw new RegistryError([{ file: dir, path: "$", message: "no manifest files (*.json) in this folder" }]);

  const issues: RegistryIssue[] = [];
  const files: ManifestText[] = [];
  for (const name of names) {
    const file = join(dir, name);
    try {
      if ((await stat(file)).size > MAX_MANIFEST_BYTES) {
        issues.push({ file, path: "$", message: `is larger than ${MAX_MANIFEST_BYTES} bytes` });
        continue;
      }
      files.push({ file, text: await readFile(file, "utf8") });
    } catch (error) {
      issues.push({ file, path: "$", message: `cannot read: ${(error as NodeJS.ErrnoException).code ?? "error"}` });
    }
  }
  return buildRegistry(files, issues, options);
}
