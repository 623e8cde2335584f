import type { CommandIo } from "../io.js";
import { resolveRegistry } from "../resolve-registry.js";
import { escapeText } from "../terminal-text.js";

/** `integrations list [--dir d]`: one line per integration. */
export async function list(dir: string | undefined, io: CommandIo): Promise<number> {
  const registry = await resolveRegistry(dir, io.cwd);
  const rows = registry.integrations().map((manifest) => {
    const reads = manifest.ops.filter((op) => op.access === "read").length;
    return [manifest.id, escapeText(manifest.name), escapeText(manifest.category), manifest.auth.kind, `${reads} read, ${manifest.ops.length - reads} write`];
  });
  const widths = [0, 1, 2, 3].map((column) => Math.max(...rows.map((row) => (row[column] as string).length)));
  for (const row of rows)
    io.stdout(
      `${row
        .map((cell, column) => cell.padEnd(widths[column] ?? 0))
        .join("  ")
        .trimEnd()}\n`,
    );
  return 0;
}
