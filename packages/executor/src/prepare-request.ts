import type { CompiledOperation, Registry } from "@eleven-integrations/loader";
import { describeArgProblems } from "./arg-problem.js";
import { buildUrl } from "./build-url.js";
import { checkArgs } from "./check-args.js";
import { errorEnvelope, type ErrorEnvelope, type RunName } from "./envelope.js";
import { failure, type FailureContext } from "./failure.js";
import type { PageSigner } from "./page-token.js";
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
  /** The checked args, the page's cursor included; what a next page is bound to. */
  readonly args: Readonly<Record<string, string>>;
  /** The hash of the manifest the op comes from; a page token is bound to it. */
  readonly manifestHash: string;
}

export type PrepareResult = { readonly ok: true; readonly request: PreparedRequest } | { readonly ok: false; readonly envelope: ErrorEnvelope };

/** Resolves the op and checks and places its args, sending nothing: the part of a run `validate` answers for. */
export function prepareRequest(
  registry: Registry,
  input: unknown,
  contextOf: (integration: string) => FailureContext,
  pages: PageSigner,
): PrepareResult {
  const request: { integration?: unknown; op?: unknown; args?: unknown; page?: unknown } = input !== null && typeof input === "object" ? input : {};
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
  let args = checkArgs(operation, request.args);
  if (!args.ok) return refuse(name, failure("invalid_args", describeArgProblems(args.problems), context));
  const manifestHash = registry.manifestHash(integration) ?? "";
  if (request.page !== undefined) {
    const paging = operation.paging;
    if (paging === undefined) return refuse(name, failure("invalid_args", `${context.service} ${operation.id} does not page, so it takes no page`, context));
    if (paging.arg === undefined) return refuse(name, failure("invalid_args", `${context.service} ${operation.id} pages in a way this executor does not run yet`, context));
    const binding = { integration, op: operation.id, manifestHash, args: args.values, cursorArg: paging.arg };
    const opened = pages.open(request.page, binding);
    if (!opened.ok) return refuse(name, failure("invalid_args", opened.message, context));
    // The cursor is an arg like any other: its declared bounds apply, and it is escaped where it is placed.
    const withCursor = checkArgs(operation, { ...args.values, [paging.arg]: opened.cursor });
    if (!withCursor.ok) return refuse(name, failure("invalid_args", `the page's cursor was refused: ${describeArgProblems(withCursor.problems)}`, context));
    args = withCursor;
  }
  if (operation.base.fixed === undefined) return refuse(name, failure("invalid_args", `${context.service} needs its tenant settings, which this executor does not take yet`, context));
  const url = buildUrl(operation, args.values);
  if (!url.ok) return refuse(name, failure("invalid_args", describeArgProblems(url.problems), context));
  return { ok: true, request: { name, operation, context, path: url.path, body: renderBody(operation, args.values), args: args.values, manifestHash } };
}

function refuse(name: RunName, error: ErrorEnvelope["error"]): PrepareResult {
  return { ok: false, envelope: errorEnvelope(name, error) };
}

function echo(value: unknown): string {
  if (typeof value !== "string") return "";
  const printable = value.replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/gu, "\uFFFD");
  return printable.length > MAX_ECHOED_NAME ? `${printable.slice(0, MAX_ECHOED_NAME)}…` : printable;
}
