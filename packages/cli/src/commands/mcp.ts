import { createRequire } from "node:module";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { UsageError, type CommandIo } from "../io.js";
import { createMcpServer } from "../mcp/mcp-server.js";
import { printable } from "../printable.js";
import { readGrantFile, sidecarClient, SidecarUnreachableError } from "../sidecar-call.js";

export interface McpCommand {
  sidecar: string;
  callerTokenFile: string;
  grants: readonly string[];
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
  const readGrants = () => Promise.all(command.grants.map(readGrantFile));
  await readGrants();
  const call = await sidecarClient({ sidecar: command.sidecar, callerTokenFile: command.callerTokenFile });
  const log = (line: string) => io.stderr(`integrations mcp: ${printable(line)}\n`);
  const { server, catalog } = createMcpServer({ call, readGrants, log, version });
  try {
    const { tools } = await catalog();
    if (tools.length === 0) {
      log("no grant gives any tool; nothing to serve");
      return 1;
    }
    log(`serving ${tools.length} tools: ${tools.map((entry) => entry.tool.name).join(", ")}`);
  } catch (error) {
    if (!(error instanceof SidecarUnreachableError)) throw error;
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
