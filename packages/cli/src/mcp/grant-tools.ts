import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import type { Account, OpsAnswer, PaletteOperation } from "@eleven-integrations/sidecar-protocol";
import { toolName } from "./tool-name.js";
import { toolInputSchema } from "./tool-schema.js";

/** One MCP tool: an op of the integration one of the grants runs. */
export interface GrantTool {
  tool: Tool;
  integration: string;
  operation: PaletteOperation;
  /** Index of the grant (in the order given) that runs it. */
  grant: number;
}

/** A grant's palette as the sidecar answered it, or the sidecar's refusal of the call itself (its code, such as `unauthorized`). */
export type GrantPaletteAnswer = OpsAnswer | { status: "error"; integration: null; error: { code: string; message: string; next_action: string } };

/** What the tools are built from: each grant's palette, in the order the grants were given. */
export interface GrantPalette {
  grant: number;
  answer: GrantPaletteAnswer;
}

export interface ToolCatalog {
  tools: GrantTool[];
  /** Grants refused and ops left out, each a line for the log. */
  problems: string[];
  /** The sidecar's refusal of each grant that did not open, in the order given. */
  refusals: { code: string; message: string; next_action: string }[];
}

/**
 * The tools of all grants: one per op a grant allows, named
 * `<integration>__<namespace>__<verb>`. When two grants allow the same op the
 * first given runs it. Reads are `readOnlyHint`; writes say whether they are
 * destructive (MCP assumes a write is destructive unless told otherwise).
 */
export function toolCatalog(palettes: readonly GrantPalette[]): ToolCatalog {
  const tools: GrantTool[] = [];
  const problems: string[] = [];
  const refusals: ToolCatalog["refusals"] = [];
  const byName = new Map<string, GrantTool>();
  for (const { grant, answer } of palettes) {
    if (answer.status !== "ok") {
      problems.push(`grant ${grant + 1} is refused (${answer.error.code}): ${answer.error.message} ${answer.error.next_action}`);
      refusals.push({ ...answer.error });
      continue;
    }
    for (const operation of answer.ops) {
      const name = toolName(answer.integration, operation.id);
      if (name === undefined) {
        problems.push(`${answer.integration} ${operation.id} is left out: its tool name would be longer than 64 characters`);
        continue;
      }
      if (byName.has(name)) continue;
      const entry: GrantTool = { tool: describeTool(name, answer.integration, operation, answer.account), integration: answer.integration, operation, grant };
      byName.set(name, entry);
      tools.push(entry);
    }
  }
  return { tools, problems, refusals };
}

function describeTool(name: string, integration: string, operation: PaletteOperation, account: Account | undefined): Tool {
  const read = operation.access === "read";
  const sentences = [`${operation.label}.`, `${integration} ${operation.id}, ${read ? "read-only" : "writes"}.`];
  // Which of the member's accounts acts (a personal or a work GitHub): the agent can say so before it runs anything.
  if (account !== undefined) sentences.push(`Acts as the ${integration} account ${account.name} (id ${account.id}).`);
  if (!read)
    sentences.push(
      `Runs only after the member confirms the line “${operation.confirm ?? operation.label}”: call without a confirmation to get the line to show them.`,
    );
  if (operation.destructive === true) sentences.push("Destructive: hard or impossible to undo.");
  if (operation.page !== undefined) sentences.push("Answers one page; pass its next_page as page to get the next.");
  return {
    name,
    title: operation.label,
    description: sentences.join(" "),
    inputSchema: toolInputSchema(operation),
    annotations: {
      title: operation.label,
      readOnlyHint: read,
      ...(read ? {} : { destructiveHint: operation.destructive === true, idempotentHint: false }),
      openWorldHint: true,
    },
  };
}
