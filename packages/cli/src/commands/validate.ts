import { relative } from "node:path";
import { loadRegistryFromDir, RegistryError } from "@eleven-integrations/loader";
import type { CommandIo } from "../io.js";
import { manifestFolder } from "../resolve-registry.js";
import { escapeText } from "../terminal-text.js";

/** `integrations validate [dir]`: 0 and a summary, or 1 and every problem as `file: path: message`. */
export async function validate(dir: string | undefined, io: CommandIo): Promise<number> {
  const folder = manifestFolder(dir, io.cwd);
  try {
    const registry = await loadRegistryFromDir(folder);
    const manifests = registry.integrations();
    const ops = manifests.reduce((count, manifest) => count + manifest.ops.length, 0);
    io.stdout(`ok: ${manifests.length} manifests, ${ops} ops valid in ${escapeText(displayPath(folder, io.cwd))} (registry ${registry.hash.slice(0, 12)})\n`);
    return 0;
  } catch (error) {
    if (!RegistryError.isInstance(error)) throw error;
    // A problem can quote a file name, a key or a value from the manifest: never raw.
    for (const issue of error.issues) io.stderr(`${escapeText(`${displayPath(issue.file, io.cwd)}: ${issue.path}: ${issue.message}`)}\n`);
    io.stderr(`${error.issues.length} problem${error.issues.length === 1 ? "" : "s"}: nothing loaded\n`);
    return 1;
  }
}

function displayPath(file: string, cwd: string): string {
  const shown = relative(cwd, file);
  return shown === "" ? "." : shown.startsWith("..") ? file : shown;
}
