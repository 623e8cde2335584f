import type { RunArgs } from "@eleven-integrations/schema";
import { fileBytesOf, type Envelope, type EnvelopeError, type RunRequest } from "@eleven-integrations/executor";
import type { StoredFileMeta } from "../files/file-store.js";
import { startedAuditRecord } from "../audit/audit-record.js";
import { elapsedMs, type AdmittedCall } from "./call.js";
import { resolveFiles } from "./resolve-files.js";

/** What goes to the executor, without the credential: the call's op (or another the call reads first, a preview), args, page and the grant's connection. */
export type ProviderRequest = Omit<RunRequest, "credential">;

/** Another op of the integration the call reads on its way, a write's preview read. */
export interface SideRead {
  op: string;
  args: RunArgs;
}

/**
 * The call's request to the provider as the executor takes it, credential aside.
 * `page` goes as it came (a page made for another op or args is the executor's
 * invalid_args, nothing sent); `connection` (the grant's tenant settings, signed
 * with it) places a tenant integration's host.
 */
export function providerRequest(call: AdmittedCall, read?: SideRead): ProviderRequest {
  const { grant } = call;
  const connection = grant.connection === undefined ? {} : { connection: grant.connection };
  if (read !== undefined) return { integration: grant.integration, op: read.op, args: read.args, ...connection };
  return {
    integration: grant.integration,
    op: call.operation.id,
    args: call.args,
    ...(call.page === undefined ? {} : { page: call.page }),
    ...connection,
  };
}

/**
 * The one place a credential meets a request: the call's op (or a read it makes
 * on its way) goes to the executor with the grant's token. A write's durable
 * `started` audit line is written and flushed first; if it cannot be, the write
 * is not sent (`AuditUnavailableError`).
 */
export async function send(call: AdmittedCall, read?: SideRead): Promise<Envelope> {
  const { grant } = call;
  const request = providerRequest(call, read);
  // Stored files are read before the started line: an unknown hash sends nothing.
  const files = await resolveFiles(request.args ?? {}, call.context.files);
  if (!files.ok) return { status: "error", integration: request.integration, op: request.op, error: files.error };
  if (read === undefined && call.operation.access === "write") await writeStarted(call);
  const envelope = await call.snapshot.executor.run({ ...request, args: files.args, credential: { token: grant.cred.token, kind: grant.cred.kind } });
  return keepFile(call, envelope);
}

/** A download's bytes go to the sidecar's file folder; the bot gets only their metadata (the envelope's data). */
async function keepFile(call: AdmittedCall, envelope: Envelope): Promise<Envelope> {
  const bytes = fileBytesOf(envelope);
  const store = call.context.files;
  if (bytes === undefined || store === undefined || envelope.status !== "ok") return envelope;
  try {
    await store.put(envelope.data as StoredFileMeta, bytes);
    return envelope;
  } catch {
    const error: EnvelopeError = {
      code: "response_too_large",
      message: "the file could not be kept in the sidecar's file folder (too large for it, or the disk refused it)",
      http_status: envelope.http_status,
      next_action: "Ask for a smaller file, or free room in the sidecar's home folder.",
    };
    return { status: "error", integration: envelope.integration, op: envelope.op, error };
  }
}

async function writeStarted(call: AdmittedCall): Promise<void> {
  try {
    await call.context.audit.append(startedAuditRecord(call.auditId, call.facts, elapsedMs(call.started)), { durable: true });
  } catch (error) {
    throw new AuditUnavailableError(error);
  }
  call.sent = true;
}

/** The `started` line of a write could not be written: nothing was sent. */
export class AuditUnavailableError extends Error {
  readonly code = "audit_unavailable" as const;

  constructor(cause: unknown) {
    super("the audit log could not be written", { cause });
    this.name = "AuditUnavailableError";
  }
}
