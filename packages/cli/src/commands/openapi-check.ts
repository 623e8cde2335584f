import { basename } from "node:path";
import type { CommandIo } from "../io.js";
import { escapeJson, escapeLines } from "../terminal-text.js";
import { readAllowList } from "../openapi/allow-list.js";
import { buildReport, formatReport, readManifest } from "../openapi/check-report.js";
import { checkOperation } from "../openapi/check-operation.js";
import { loadOpenApi } from "../openapi/load-openapi.js";

export interface OpenApiCheckOptions {
  manifest: string;
  spec: string;
  allow: string | undefined;
  json: boolean;
}

/** `integrations openapi check <manifest> --spec <file>`: one line per op, a summary; 1 on any mismatch the allow-list does not cover. */
export async function openapiCheck(options: OpenApiCheckOptions, io: CommandIo): Promise<number> {
  const manifest = await readManifest(options.manifest, io.cwd);
  const allow = await readAllowList(options.allow, io.cwd);
  const document = await loadOpenApi(options.spec, io.cwd);
  const report = buildReport(manifest, basename(options.spec), allow, (op) => {
    const result = checkOperation(document, manifest, op);
    return { matched: result.operation, mismatches: result.mismatches };
  });
  io.stdout(options.json ? `${escapeJson(report)}\n` : escapeLines(formatReport(report)));
  return report.ok ? 0 : 1;
}
