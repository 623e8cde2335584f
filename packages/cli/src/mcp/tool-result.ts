import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";

interface ErrorBody {
  code: string;
  message: string;
  next_action?: string;
  [key: string]: unknown;
}

/** A tool error carrying the envelope's code and next action. */
export function toolError(error: ErrorBody): CallToolResult {
  const next = error.next_action === undefined ? "" : `\nNext: ${error.next_action}`;
  return {
    isError: true,
    content: [{ type: "text", text: `${error.code}: ${error.message}${next}` }],
    structuredContent: { status: "error", error: { ...error } },
  };
}

/**
 * What a `/v1/run` answer is as a tool result: `ok` its data (and `next_page`);
 * `confirmation_required` the line, details and args digest for the member (not
 * an error: the call goes on once they confirm); an error envelope a tool error.
 */
export function runResult(statusCode: number, body: unknown): CallToolResult {
  const answer = (typeof body === "object" && body !== null ? body : {}) as Record<string, unknown>;
  if (statusCode !== 200) {
    const error = (answer.error ?? {}) as Partial<ErrorBody>;
    return toolError({ code: error.code ?? "sidecar_error", message: error.message ?? `the sidecar answered ${statusCode}`, next_action: "Check the MCP server's --sidecar and caller token, then try again." });
  }
  if (answer.status === "ok") {
    const structured: Record<string, unknown> = { status: "ok", http_status: answer.http_status, data: answer.data };
    if (typeof answer.next_page === "string") structured.next_page = answer.next_page;
    const more = typeof answer.next_page === "string" ? `\n\nMore results: call again with the same args and page set to next_page: ${answer.next_page}` : "";
    return { content: [{ type: "text", text: `${JSON.stringify(answer.data)}${more}` }], structuredContent: structured };
  }
  if (answer.status === "confirmation_required") {
    const details = Array.isArray(answer.details) ? (answer.details as { name: string; value: string }[]) : [];
    const lines = [
      "Confirmation required: nothing ran yet. Show the member this line and ask them to confirm it:",
      `  ${String(answer.confirm)}`,
      ...(details.length === 0 ? [] : ["With these details:", ...details.map((detail) => `  ${detail.name}: ${detail.value}`)]),
      `The member signs it for grant ${String(answer.gid)} and args digest ${String(answer.args_digest)} (integrations confirm).`,
      "Then call this tool again with exactly the same args and confirmation set to the ec1... token they give you.",
    ];
    return {
      content: [{ type: "text", text: lines.join("\n") }],
      structuredContent: {
        status: "confirmation_required",
        integration: answer.integration,
        op: answer.op,
        confirm: answer.confirm,
        details,
        args_digest: answer.args_digest,
        gid: answer.gid,
      },
    };
  }
  const error = (answer.error ?? {}) as Partial<ErrorBody>;
  return toolError({ ...error, code: error.code ?? "sidecar_error", message: error.message ?? "the sidecar answered something unexpected" });
}
