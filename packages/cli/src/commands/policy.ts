import type { CommandIo } from "../io.js";
import { readSecretArgument } from "../secret-input.js";
import { askOnce, connectForCommand } from "../sidecar-client.js";
import { escapeJson, escapeText } from "../terminal-text.js";

export interface PolicyCommand {
  /** `@file` or `-`, never the grant itself. */
  grant: string;
  /** Each `@file`. */
  approvals: readonly string[];
  sidecar: string;
  callerTokenFile: string;
  json: boolean;
}

const DECISION_TEXT = { allow: "runs", ask: "asks the member (a tap)", block: "blocked" } as const;

/**
 * `integrations policy`: asks the sidecar what each op of the grant will meet
 * (`POST /v1/policy`): runs, asks the member, or is blocked, and for a write a
 * standing approval covers, the approval and its budget left. Prints one line
 * per op (or the answer as JSON with `--json`).
 */
export async function policy(command: PolicyCommand, io: CommandIo): Promise<number> {
  const grant = await readSecretArgument("grant", command.grant, io);
  const approvals = await Promise.all(command.approvals.map((reference) => readSecretArgument("approval", reference, io)));
  const client = await connectForCommand(command.sidecar, command.callerTokenFile);
  const answer = await askOnce(client, (sidecar) => sidecar.policy({ grant, ...(approvals.length === 0 ? {} : { approvals }) }), io);
  if (answer === undefined) return 1;
  if (command.json || answer.status !== "ok") {
    io.stdout(`${escapeJson(answer)}\n`);
    return answer.status === "ok" ? 0 : 1;
  }
  const lines = [`${escapeText(answer.integration)}:`];
  for (const op of answer.ops) {
    const approval = op.approval;
    const said =
      approval === undefined
        ? DECISION_TEXT[op.decision]
        : `runs without asking under approval ${escapeText(approval.aid)}: ${approval.runs_left} left until ${new Date(approval.resets_at * 1000).toISOString()}`;
    lines.push(`  ${escapeText(op.id)} (${op.access}): ${said}`);
  }
  for (const refused of answer.refused_approvals ?? []) lines.push(`  approval #${refused.index + 1} covers nothing: ${escapeText(refused.message)}`);
  io.stdout(`${lines.join("\n")}\n`);
  return 0;
}
