import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { SidecarClientError, type SidecarClient } from "@eleven-integrations/sidecar-protocol";
import { argValueSchema, type RunArgs } from "@eleven-integrations/schema";
import { toolCatalog, type GrantPaletteAnswer, type ToolCatalog } from "./grant-tools.js";
import { CONFIRMATION_INPUT, PAGE_INPUT } from "./tool-schema.js";
import { runResult, toolError } from "./tool-result.js";

export interface McpServerOptions {
  /** The sidecar's typed client: `ops` for the palettes, `run` for every call, `policy` to find the approval that covers a write. */
  sidecar: Pick<SidecarClient, "ops" | "run" | "policy">;
  /** Reads the grants afresh, in the order given: a member may replace an expired grant's file while the server runs. */
  readGrants: () => Promise<string[]>;
  /** Reads the member's standing approvals afresh: a write one covers runs with no tap, no elicitation. */
  readApprovals?: () => Promise<string[]>;
  /** Where problems with grants are reported (stderr: stdout carries the protocol). */
  log: (line: string) => void;
  version: string;
}

/**
 * The MCP server of a bot's grants: its tools are the ops the grants allow, as
 * the sidecar's `POST /v1/ops` lists them, and every call is a `POST /v1/run`.
 * It holds no token and no key: the grants are sealed to the bot, and only the
 * sidecar opens them.
 */
export function createMcpServer(options: McpServerOptions): { server: Server; catalog: () => Promise<ToolCatalog> } {
  const server = new Server({ name: "eleven-integrations", version: options.version }, { capabilities: { tools: { listChanged: false } } });

  const catalog = async (): Promise<ToolCatalog> => {
    const grants = await options.readGrants();
    const palettes = await Promise.all(
      grants.map(async (grant, index) => {
        try {
          return { grant: index, answer: await options.sidecar.ops({ grant }) };
        } catch (error) {
          // Unreachable stays an exception (the caller says so); a refused call is this grant's problem.
          if (!SidecarClientError.isInstance(error) || error.status === undefined) throw error;
          const refused: GrantPaletteAnswer = {
            status: "error",
            integration: null,
            error: { code: error.code, message: error.message, next_action: "Check the grant file and the caller token." },
          };
          return { grant: index, answer: refused };
        }
      }),
    );
    const built = toolCatalog(palettes);
    for (const problem of built.problems) options.log(problem);
    return built;
  };

  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: (await catalog()).tools.map((entry) => entry.tool) }));

  /** The standing approval the sidecar says covers this write of the grant (the first with runs left), if the member gave one. */
  const coveringApproval = async (grant: string, op: string): Promise<string | undefined> => {
    const approvals = (await options.readApprovals?.()) ?? [];
    if (approvals.length === 0) return undefined;
    const review = await options.sidecar.policy({ grant, approvals });
    if (review.status !== "ok") return undefined;
    const covered = review.ops.find((candidate) => candidate.id === op)?.approval;
    return covered === undefined ? undefined : approvals[covered.index];
  };

  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    let current: ToolCatalog;
    try {
      current = await catalog();
    } catch (error) {
      return toolError({
        code: "sidecar_unreachable",
        message: (error as Error).message,
        next_action: "Start the sidecar, or point --sidecar at it, then try again.",
      });
    }
    const entry = current.tools.find((candidate) => candidate.tool.name === request.params.name);
    if (entry === undefined) {
      // A grant that no longer opens (expired, most often) takes its tools with it: say why, with the sidecar's next action.
      const refusal = current.refusals[0];
      if (refusal !== undefined) return toolError(refusal);
      return toolError({
        code: "unknown_tool",
        message: `no tool ${request.params.name} for these grants`,
        next_action: "List the tools again: they are the ops the grants allow.",
      });
    }
    const input = request.params.arguments ?? {};
    const args: RunArgs = {};
    let page: string | undefined;
    let confirmation: string | undefined;
    for (const [name, given] of Object.entries(input)) {
      const checked = argValueSchema.safeParse(given);
      if (!checked.success) {
        return toolError({
          code: "invalid_args",
          message: `${name} must be a string (a list argument an array of strings, a file argument a file)`,
          next_action: "Pass every argument as its input schema says.",
        });
      }
      const value = checked.data;
      if (typeof value !== "string") args[name] = value;
      else if (name === PAGE_INPUT && entry.operation.page !== undefined) page = value;
      else if (name === CONFIRMATION_INPUT && entry.operation.access === "write" && !(name in entry.operation.args)) confirmation = value;
      else args[name] = value;
    }
    const grants = await options.readGrants();
    const grant = grants[entry.grant];
    if (grant === undefined) return toolError({ code: "unknown_tool", message: `no grant for ${request.params.name}`, next_action: "List the tools again." });
    try {
      const approval = confirmation === undefined && entry.operation.access === "write" ? await coveringApproval(grant, entry.operation.id) : undefined;
      const body = {
        grant,
        op: entry.operation.id,
        args,
        ...(page === undefined ? {} : { page }),
        ...(confirmation === undefined ? {} : { confirmation }),
        ...(approval === undefined ? {} : { approval }),
      };
      const answer = await options.sidecar.run(body);
      // Outside the approval's room, or past its budget: the member's tap, as without one (asking sends nothing).
      if (approval !== undefined && answer.status === "error" && (answer.error.code === "approval_invalid" || answer.error.code === "approval_exhausted")) {
        const { approval: _unused, ...withoutApproval } = body;
        return runResult(await options.sidecar.run(withoutApproval), args);
      }
      return runResult(answer, args);
    } catch (error) {
      if (SidecarClientError.isInstance(error) && error.status !== undefined) {
        return toolError({ code: error.code, message: error.message, next_action: "Check the MCP server's --sidecar and caller token, then try again." });
      }
      return toolError({
        code: "sidecar_unreachable",
        message: (error as Error).message,
        next_action: "Start the sidecar, or point --sidecar at it, then try again.",
      });
    }
  });

  return { server, catalog };
}
