import type { CommandIo } from "../io.js";
import { escapeJson, escapeLines } from "../terminal-text.js";
import { findOperation } from "../openapi/find-operation.js";
import { draftOperation } from "../openapi/import-operation.js";
import { loadOpenApi } from "../openapi/load-openapi.js";

export interface OpenApiImportOptions {
  spec: string;
  operation: string;
  id: string | undefined;
  json: boolean;
}

/**
 * `integrations openapi import --spec <file> --operation <operationId|METHOD /path> [--id ns.verb]`:
 * the draft op on stdout (paste it into `ops`), what is left to decide on stderr.
 */
export async function openapiImport(options: OpenApiImportOptions, io: CommandIo): Promise<number> {
  const document = await loadOpenApi(options.spec, io.cwd);
  const spec = findOperation(document, options.operation);
  const draft = draftOperation(spec, { id: options.id });
  if (options.json) {
    io.stdout(`${escapeJson({ base: draft.base ?? null, op: draft.op, decide: draft.decide })}\n`);
    return 0;
  }
  // A description is the provider's text: nothing from it reaches the terminal raw.
  io.stdout(`${escapeJson(draft.op)}\n`);
  const lines = [
    `draft of ${spec.method} ${spec.path}${spec.operationId === undefined ? "" : ` (${spec.operationId})`} from ${options.spec}${draft.base === undefined ? "" : `; its path is relative to auth.base ${draft.base}`}`,
    "still to decide before it ships:",
    ...draft.decide.map((item) => `  - ${item}`),
    "then: integrations validate, and integrations openapi check <manifest> --spec <file>",
  ];
  io.stderr(`${escapeLines(lines.join("\n"))}\n`);
  return 0;
}
