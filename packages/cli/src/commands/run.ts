import { readFile } from "node:fs/promises";
import { request } from "undici";
import { UsageError, type CommandIo } from "../io.js";

export interface RunCommand {
  integration: string;
  op: string;
  args: Record<string, string>;
  grant: string;
  confirmation: string | undefined;
  sidecar: string;
  callerTokenFile: string;
}

/** `integrations run`: asks a sidecar to run one op and prints the envelope it answers. */
export async function run(command: RunCommand, io: CommandIo): Promise<number> {
  const url = new URL("/v1/run", command.sidecar);
  if (url.protocol !== "http:" || !["127.0.0.1", "[::1]", "localhost"].includes(url.hostname)) {
    throw new UsageError("--sidecar must be a loopback http address, such as http://127.0.0.1:8787");
  }
  const grant = command.grant.startsWith("@") ? (await readFile(command.grant.slice(1), "utf8")).trim() : command.grant;
  let callerToken: string;
  try {
    callerToken = (await readFile(command.callerTokenFile, "utf8")).trim();
  } catch (error) {
    throw new UsageError(`cannot read the caller token file ${command.callerTokenFile}: ${(error as NodeJS.ErrnoException).code ?? "error"}`);
  }
  const body = {
    grant,
    op: command.op,
    args: command.args,
    ...(command.confirmation === undefined ? {} : { confirmation: command.confirmation }),
  };
  let response;
  try {
    response = await request(url, {
      method: "POST",
      headers: { authorization: `Bearer ${callerToken}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  } catch (error) {
    io.stderr(`cannot reach the sidecar at ${url.origin}: ${(error as NodeJS.ErrnoException).code ?? "error"}\n`);
    return 1;
  }
  const text = await response.body.text();
  let envelope: { status?: unknown; integration?: unknown } | undefined;
  try {
    envelope = JSON.parse(text) as typeof envelope;
  } catch {
    envelope = undefined;
  }
  io.stdout(`${envelope === undefined ? text : JSON.stringify(envelope, null, 2)}\n`);
  if (response.statusCode !== 200) return 1;
  if (envelope?.integration !== undefined && envelope.integration !== command.integration) {
    io.stderr(`the grant is for ${String(envelope.integration)}, not ${command.integration}\n`);
    return 1;
  }
  return envelope?.status === "ok" ? 0 : 1;
}
