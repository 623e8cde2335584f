import { relative } from "node:path";
import { loadRegistryFromDir, RegistryError } from "@eleven-integrations/loader";
import { manifestAdvice } from "@eleven-integrations/schema";
import type { CommandIo } from "../io.js";
import { manifestFolder } from "../resolve-registry.js";
import { escapeText } from "../terminal-text.js";

/**
 * `integrations validate [dir] [--strict]`: 0 and a summary, or 1 and every problem as
 * `file: path: message`. A manifest that loads but breaks a catalog rule (`manifestAdvice`)
 * draws a `warning: file: path: message (rule <name>)` line; `--strict` makes those refusals.
 */
export async function validate(dir: string | undefined, io: CommandIo, options: { strict?: boolean } = {}): Promise<number> {
  const folder = manifestFolder(dir, io.cwd);
  try {
    const registry = await loadRegistryFromDir(folder);
    const manifests = registry.integrations();
    let broken = 0;
    for (const manifest of manifests) {
      const file = displayPath(`${folder}/${manifest.id}.json`, io.cwd);
      for (const advice of manifestAdvice(manifest)) {
        broken += 1;
        // A path or message can quote the manifest: never raw.
        io.stderr(`${options.strict === true ? "" : "warning: "}${escapeText(`${file}: ${advice.path}: ${advice.message}`)} (rule ${advice.rule})\n`);
      }
    }
    if (options.strict === true && broken > 0) {
      io.stderr(`${broken} catalog rule${broken === 1 ? "" : "s"} broken (--strict)\n`);
      return 1;
    }
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
