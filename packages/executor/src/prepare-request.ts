import type { CompiledOperation, Registry } from "@eleven-integrations/loader";
import { describeArgProblems } from "./arg-problem.js";
import { buildUrl } from "./build-url.js";
import { checkArgs } from "./check-args.js";
import { errorEnvelope, type ErrorEnvelope, type RunName } from "./envelope.js";
import { failure, type FailureContext } from "./failure.js";
import { renderBody, type RenderedBody } from "./render-body.js";

/** How much of an unknown integration or op name an envelope echoes back. */
const MAX_ECHOED_NAME = 100;

/** An op with its request target and body built: everything but the credential. */
export interface PreparedRequest {
  readonly name: RunName;
  readonly operation: CompiledOperation;
  readonly context: FailureContext;
  /** Path and query, appended to `operation.origin`. */
  readonly path: string;
  readonly body: RenderedBody | undefined;
}

export type PrepareResult = { readonly ok: true; readonly request: PreparedRequest } | { readonly ok: false; readonly envelope: ErrorEnvelope };

/** Resolves the op and checks and places its args, sending nothing: the part of a run `validate` answers for. */
export function prepareRequest(
  registry: Registry,
  input: unknown,
  contextOf: (integration: string) => FailureContext,
): PrepareResult {
  const request: { integration?: unknown; op?: unknown; args?: unknown } = input !== null && typeof input === "object" ? input : {};
  const name: RunName = { integration: echo(request.integration), op: echo(request.op) };
  const integration = typeof request.integration === "string" ? request.integration : undefined;
  if (integration === undefined || registry.get(integration) === undefined) {
    return refuse(name, failure("unknown_integration", `no integration named "${name.integration}" is installed`));
  }
  const context = contextOf(integration);
  const operation = typeof request.op === "string" ? registry.operation(integration, request.op) : undefined;
  if (operation === undefined) {
    return refuse(name, failure("unknown_op", `${context.service} has no operation named "${name.op}"`, context));
  }
  const args = checkArgs(operation, request.args);
  if (!args.ok) return refuse(name, failure("invalid_args", describeArgProblems(args.problems), context));
  const url = buildUrl(operation, args.values);
  if (!url.ok) return refuse(name, failure("invalid_args", describeArgProblems(url.problems), context));
  return { ok: true, request: { name, operation, context, path: url.path, body: renderBody(operation, args.values) } };
}

function refuse(name: RunName, error: ErrorEnvelope["error"]): PrepareResult {
  return { ok: false, envelope: errorEnvelope(name, error) };
}

function echo(value: unknown): string {
  if (typeof value !== "string") return "";
  const printable = value.replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/gu, "\uFFFD");
  return printable.length > MAX_ECHOED_NAME ? `${printable.slice(0, MAX_ECHOED_NAME)}…` : printable;
}
