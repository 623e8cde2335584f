import { createRequire } from "node:module";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { UsageError, type CommandIo } from "../io.js";
import { createMcpServer } from "../mcp/mcp-server.js";
import { readSecretArgument } from "../secret-input.js";
import { SidecarClientError } from "@eleven-integrations/sidecar-protocol";
import { connectForCommand } from "../sidecar-client.js";
import { escapeText } from "../terminal-text.js";

export interface McpCommand {
  /** `unix:/path` or `http://127.0.0.1:P`. */
  sidecar: string;
  callerTokenFile: string;
  /** Each `@file`: read again on every list and call, so a member can replace an expired grant. */
  grants: readonly string[];
  /** Each `@file`: the member's standing approvals, read again on every write; a write one covers runs with no tap. */
  approvals?: readonly string[];
}

const { version } = createRequire(import.meta.url)("../../package.json") as { version: string };

/**
 * `integrations mcp`: a Model Context Protocol server on standard input and
 * output whose tools are the ops the grants allow; every call goes through the
 * sidecar. Checks the grants and the sidecar before serving; resolves when the
 * client closes the stream.
 */
export async function mcp(command: McpCommand, io: CommandIo): Promise<number> {
  if (command.grants.length === 0) throw new UsageError("mcp needs at least one --grant @file");
  // Standard input carries the protocol: grants come from files only.
  if (command.grants.some((reference) => !reference.startsWith("@") || reference === "@-")) {
    throw new UsageError("mcp takes each --grant as @file (standard input carries the protocol), never the grant itself");
  }
  const readGrants = () => Promise.all(command.grants.map((reference) => readSecretArgument("grant", reference, io)));
  const approvals = command.approvals ?? [];
  if (approvals.some((reference) => !reference.startsWith("@") || reference === "@-")) {
    throw new UsageError("mcp takes each --approval as @file (standard input carries the protocol)");
  }
  const readApprovals = () => Promise.all(approvals.map((reference) => readSecretArgument("approval", reference, io)));
  await readGrants();
  const client = await connectForCommand(command.sidecar, command.callerTokenFile);
  const log = (line: string) => io.stderr(`integrations mcp: ${escapeText(line)}\n`);
  const { server, catalog } = createMcpServer({ sidecar: client, readGrants, readApprovals, log, version });
  try {
    return await serve(server, catalog, log);
  } finally {
    await client.close();
  }
}

async function serve(
  server: ReturnType<typeof createMcpServer>["server"],
  catalog: ReturnType<typeof createMcpServer>["catalog"],
  log: (line: string) => void,
): Promise<number> {
  try {
    const { tools } = await catalog();
    if (tools.length === 0) {
      log("no grant gives any tool; nothing to serve");
      return 1;
    }
    log(`serving ${tools.length} tools: ${tools.map((entry) => entry.tool.name).join(", ")}`);
  } catch (error) {
    if (!SidecarClientError.isInstance(error)) throw error;
    log(error.message);
    return 1;
  }
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    server.onclose = () => resolve();
    process.stdin.once("end", () => resolve());
  });
  await server.connect(transport);
  await closed;
  await server.close();
  return 0;
}
