import { basename } from "node:path";
import { checkGraphqlOperation } from "../graphql/check-graphql-operation.js";
import { loadGraphqlSchema } from "../graphql/load-schema.js";
import type { CommandIo } from "../io.js";
import { escapeJson, escapeLines } from "../terminal-text.js";
import { readAllowList } from "../openapi/allow-list.js";
import { buildReport, formatReport, readManifest } from "../openapi/check-report.js";

export interface GraphqlCheckOptions {
  manifest: string;
  schema: string;
  allow: string | undefined;
  json: boolean;
}

/** `integrations graphql check <manifest> --schema <file.graphql>`: one line per op, a summary; 1 on any mismatch. */
export async function graphqlCheck(options: GraphqlCheckOptions, io: CommandIo): Promise<number> {
  const manifest = await readManifest(options.manifest, io.cwd);
  const allow = await readAllowList(options.allow, io.cwd);
  const schema = await loadGraphqlSchema(options.schema, io.cwd);
  const report = buildReport(manifest, basename(options.schema), allow, (op) => {
    const result = checkGraphqlOperation(schema, op);
    return { matched: result.operation, mismatches: result.mismatches };
  });
  io.stdout(options.json ? `${escapeJson(report)}\n` : escapeLines(formatReport(report)));
  return report.ok ? 0 : 1;
}
