import type { CommandIo } from "../io.js";
import { UsageError } from "../io.js";
import { resolveRegistry } from "../resolve-registry.js";
import { escapeJson, escapeText } from "../terminal-text.js";

/** `integrations show <id> [--json]`: the integration's auth and ops, or its manifest as JSON. */
export async function show(id: string | undefined, dir: string | undefined, json: boolean, io: CommandIo): Promise<number> {
  if (id === undefined) throw new UsageError("show needs an integration id: integrations show <id>");
  const registry = await resolveRegistry(dir, io.cwd);
  const manifest = registry.get(id);
  if (manifest === undefined) {
    io.stderr(`unknown integration "${escapeText(id)}" (try: integrations list)\n`);
    return 1;
  }
  if (json) {
    io.stdout(`${escapeJson(manifest)}\n`);
    return 0;
  }
  const lines = [
    `${manifest.name} (${manifest.id}) — ${manifest.category}`,
    `host: ${manifest.auth.base}`,
    `auth: ${manifest.auth.kind}${manifest.auth.oauth ? `, scopes ${manifest.auth.oauth.scopes.join(" ") || "(none)"}` : ""}`,
    ...(manifest.auth.pat_help ? [`token: ${manifest.auth.pat_help}`] : []),
    `manifest hash: ${registry.manifestHash(id)}`,
    "ops:",
  ];
  for (const op of manifest.ops) {
    const args = Object.entries(op.args ?? {}).map(([name, arg]) => (arg.required ? name : `${name}?`));
    lines.push(`  ${op.access.padEnd(5)} ${op.id}(${args.join(", ")}) — ${op.label}`);
    if (op.confirm) lines.push(`        confirm: ${op.confirm}`);
  }
  // Manifest text is plain when it loads; escaping again keeps a terminal safe whatever a manifest holds.
  io.stdout(`${lines.map(escapeText).join("\n")}\n`);
  return 0;
}
