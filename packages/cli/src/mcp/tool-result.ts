import type { RunArgs } from "@eleven-integrations/schema";
import type { RunAnswer } from "@eleven-integrations/sidecar-protocol";
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
 * `confirmation_required` the line (and preview), details and args digest for the
 * member (not an error: the call goes on once they confirm); an error envelope a tool error.
 */
export function runResult(answer: RunAnswer, args: Readonly<RunArgs> = {}): CallToolResult {
  if (answer.status === "ok") {
    const structured: Record<string, unknown> = { status: "ok", http_status: answer.http_status, data: answer.data };
    if (answer.next_page !== undefined) structured.next_page = answer.next_page;
    if (answer.receipt !== undefined) structured.receipt = answer.receipt;
    if (answer.replayed === true) structured.replayed = true;
    const more = answer.next_page === undefined ? "" : `\n\nMore results: call again with the same args and page set to next_page: ${answer.next_page}`;
    return { content: [{ type: "text", text: `${JSON.stringify(answer.data)}${more}` }], structuredContent: structured };
  }
  if (answer.status === "confirmation_required") {
    const { details } = answer;
    const lines = [
      "Confirmation required: nothing ran yet. Show the member this line and ask them to confirm it:",
      `  ${answer.confirm}`,
      ...(answer.preview === undefined ? [] : [`  ${answer.preview}`]),
      ...(details.length === 0 ? [] : ["With these details:", ...details.map((detail) => `  ${detail.name}: ${detail.value}`)]),
      `The member signs it for grant ${answer.gid} and args digest ${answer.args_digest}: in their Eleven client by tapping the line, or with:`,
      `  ${confirmCommand(answer, args)}`,
      "Then call this tool again with exactly the same args and confirmation set to the ec1... token they give you.",
    ];
    return {
      content: [{ type: "text", text: lines.join("\n") }],
      structuredContent: {
        status: "confirmation_required",
        integration: answer.integration,
        op: answer.op,
        confirm: answer.confirm,
        ...(answer.preview === undefined ? {} : { preview: answer.preview }),
        details,
        args_digest: answer.args_digest,
        gid: answer.gid,
      },
    };
  }
  if (answer.error.code === "target_changed" && answer.confirm !== undefined) return targetChanged(answer);
  return toolError({ ...answer.error });
}

/** A word for a POSIX shell: bare when it is only safe characters, else in single quotes. */
function shellWord(word: string): string {
  return /^[A-Za-z0-9_./:=@%+-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`;
}

/**
 * The member's exact command for this chip: `integrations confirm` with the grant's
 * id, the args (each `--arg name=value`, a list or a file `--arg name:=<json>`,
 * shell-quoted), the digest they must hash to, and the preview on standard input when
 * the write shows one.
 */
export function confirmCommand(
  answer: { integration: string; op: string; gid: string; args_digest: string; preview?: string | undefined },
  args: Readonly<RunArgs>,
): string {
  const words = [
    "integrations",
    "confirm",
    answer.integration,
    answer.op,
    "--member",
    "<your member key file>",
    "--gid",
    answer.gid,
    "--expect-digest",
    answer.args_digest,
  ];
  for (const [name, value] of Object.entries(args)) words.push("--arg", typeof value === "string" ? `${name}=${value}` : `${name}:=${JSON.stringify(value)}`);
  const command = words.map((word) => (word === "<your member key file>" ? word : shellWord(word))).join(" ");
  return answer.preview === undefined ? command : `printf '%s' ${shellWord(answer.preview)} | ${command} --preview -`;
}

/**
 * A write whose target changed after the member's tap: nothing ran and their tap
 * is still unused; the new chip (line, preview, details) goes to the member to confirm again.
 */
function targetChanged(answer: Extract<RunAnswer, { status: "error" }>): CallToolResult {
  const result = toolError({ ...answer.error });
  const lines = [
    `target_changed: ${answer.error.message}`,
    "Show the member the new line and ask them to confirm it again:",
    `  ${answer.confirm ?? ""}`,
    ...(answer.preview === undefined ? [] : [`  ${answer.preview}`]),
    ...((answer.details ?? []).length === 0 ? [] : ["With these details:", ...(answer.details ?? []).map((detail) => `  ${detail.name}: ${detail.value}`)]),
    `The member signs it for grant ${answer.gid ?? ""} and args digest ${answer.args_digest ?? ""} (integrations confirm --preview).`,
    `Next: ${answer.error.next_action}`,
  ];
  return {
    ...result,
    content: [{ type: "text", text: lines.join("\n") }],
    structuredContent: {
      status: "error",
      error: { ...answer.error },
      confirm: answer.confirm,
      ...(answer.preview === undefined ? {} : { preview: answer.preview }),
      details: answer.details ?? [],
      ...(answer.args_digest === undefined ? {} : { args_digest: answer.args_digest }),
      ...(answer.gid === undefined ? {} : { gid: answer.gid }),
    },
  };
}
