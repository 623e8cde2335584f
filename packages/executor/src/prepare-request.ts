import type { CompiledOperation, Registry, ResolvedBase, TenantProblem } from "@eleven-integrations/loader";
import { describeArgProblems } from "./arg-problem.js";
import { buildUrl } from "./build-url.js";
import { checkArgs, type ArgValues } from "./check-args.js";
import { errorEnvelope, type ErrorEnvelope, type RunName } from "./envelope.js";
import { failure, type FailureContext } from "./failure.js";
import { checkNextPath } from "./next-path.js";
import { renderOpHeaders } from "./op-headers.js";
import type { PageBinding, PageSigner } from "./page-token.js";
import { renderBody, type RenderedBody } from "./render-body.js";
import type { BodyPurpose } from "./upload-body.js";

/** How much of an unknown integration or op name an envelope echoes back. */
const MAX_ECHOED_NAME = 100;

/** An op with its request target and body built: everything but the credential. */
export interface PreparedRequest {
  /** What the caller asked for: the envelope names it, even when another op runs the page. */
  readonly name: RunName;
  /** The op that is sent: the one asked for, or its `page.next_op` for a continued page. */
  readonly operation: CompiledOperation;
  readonly context: FailureContext;
  /** The origin the request goes to: the base's, with the connection's tenant filled in. */
  readonly origin: string;
  /** The base the request is under, for checking the next page's path. */
  readonly base: ResolvedBase;
  /** Path and query, appended to `origin`. */
  readonly path: string;
  readonly body: RenderedBody | undefined;
  /** The sent op's own headers, filled with its args. */
  readonly opHeaders: readonly (readonly [string, string])[];
  /** The checked args of the op asked for (its cursor included, when it takes one). */
  readonly args: ArgValues;
  /** The hash of the manifest the op comes from; a page token is bound to it. */
  readonly manifestHash: string;
  /** What the next page's token is bound to (the op asked for, its args without the cursor, its manifest); undefined when that op does not page. */
  readonly pageBinding: PageBinding | undefined;
}

export type PrepareResult = { readonly ok: true; readonly request: PreparedRequest } | { readonly ok: false; readonly envelope: ErrorEnvelope };

/** Resolves the op and checks and places its args, sending nothing: the part of a run `validate` answers for. */
export function prepareRequest(
  registry: Registry,
  input: unknown,
  contextOf: (integration: string) => FailureContext,
  pages: PageSigner,
  purpose: BodyPurpose = "send",
): PrepareResult {
  const request: { integration?: unknown; op?: unknown; args?: unknown; page?: unknown; connection?: unknown } =
    input !== null && typeof input === "object" ? input : {};
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
  if (!args.ok) return invalid(name, context, describeArgProblems(args.problems));
  // Tenant settings come from the connection alone (the grant), never from the args.
  let base: ResolvedBase | undefined = operation.base.fixed;
  if (base === undefined) {
    const tenant = operation.base.resolve(request.connection);
    if (!tenant.ok) return invalid(name, context, describeTenantProblems(tenant.problems));
    base = tenant.base;
  }
  const scope: Scope = { name, context, integration, operation, manifestHash: registry.manifestHash(integration) ?? "", base, purpose };
  const paging = operation.paging;

  if (request.page !== undefined) {
    if (paging === undefined) return invalid(name, context, `${context.service} ${operation.id} does not page, so it takes no page`);
    const opened = pages.open(request.page, pageBinding(scope, args.values));
    if (!opened.ok) return invalid(name, context, opened.message);
    if (paging.nextPath) {
      // The path was checked when the answer gave it; checked again as it is sent.
      const next = checkNextPath(opened.cursor, base);
      if (!next.ok) return invalid(name, context, next.message);
      return prepared(scope, operation, next.path, args.values, args.values);
    }
    if (paging.nextOp !== undefined) {
      const continuation = registry.operation(integration, paging.nextOp);
      const cursorArg = continuation?.paging?.arg;
      if (continuation === undefined || cursorArg === undefined)
        return invalid(name, context, `${context.service} ${operation.id} names no op to continue its pages with`);
      const withCursor = checkArgs(continuation, { [cursorArg]: opened.cursor });
      if (!withCursor.ok) return invalid(name, context, `the page's cursor was refused: ${describeArgProblems(withCursor.problems)}`);
      // A continuation on a further host goes there, pinned like base.
      const url = buildUrl(continuation, withCursor.values, continuation.host === undefined ? base : (continuation.base.fixed ?? base));
      if (!url.ok) return invalid(name, context, describeArgProblems(url.problems));
      return prepared(scope, continuation, url.path, args.values, withCursor.values);
    }
    if (paging.arg === undefined) return invalid(name, context, `${context.service} ${operation.id} does not page, so it takes no page`);
    // The cursor is an arg like any other: its declared bounds apply, and it is escaped where it is placed.
    const withCursor = checkArgs(operation, { ...args.values, [paging.arg]: opened.cursor });
    if (!withCursor.ok) return invalid(name, context, `the page's cursor was refused: ${describeArgProblems(withCursor.problems)}`);
    args = withCursor;
  }
  const url = buildUrl(operation, args.values, base);
  if (!url.ok) return invalid(name, context, describeArgProblems(url.problems));
  return prepared(scope, operation, url.path, args.values, args.values);
}

/** What every part of one prepared run shares. */
interface Scope {
  readonly name: RunName;
  readonly context: FailureContext;
  readonly integration: string;
  /** The op asked for. */
  readonly operation: CompiledOperation;
  readonly manifestHash: string;
  readonly base: ResolvedBase;
  readonly purpose: BodyPurpose;
}

/** A next page's token is bound to the op asked for, its args (cursor left out) and its manifest. */
function pageBinding(scope: Scope, values: ArgValues): PageBinding {
  return {
    integration: scope.integration,
    op: scope.operation.id,
    manifestHash: scope.manifestHash,
    args: values,
    cursorArg: scope.operation.paging?.arg ?? "",
  };
}

function prepared(scope: Scope, sent: CompiledOperation, path: string, values: ArgValues, sentArgs: ArgValues): PrepareResult {
  const headers = renderOpHeaders(sent, sentArgs);
  if (!headers.ok) return invalid(scope.name, scope.context, headers.message);
  const body = renderBody(sent, sentArgs, scope.purpose);
  if (!body.ok) return invalid(scope.name, scope.context, describeArgProblems(body.problems));
  const base = sent.host === undefined ? scope.base : (sent.base.fixed ?? scope.base);
  return {
    ok: true,
    request: {
      name: scope.name,
      operation: sent,
      context: scope.context,
      origin: base.origin,
      base,
      path,
      opHeaders: headers.headers,
      body: body.body,
      args: values,
      manifestHash: scope.manifestHash,
      pageBinding: scope.operation.paging === undefined ? undefined : pageBinding(scope, values),
    },
  };
}

function invalid(name: RunName, context: FailureContext, message: string): PrepareResult {
  return refuse(name, failure("invalid_args", message, context));
}

/** Names each tenant setting that is missing or refused, never its value. */
function describeTenantProblems(problems: readonly TenantProblem[]): string {
  return problems.map((problem) => (problem.setting === "" ? problem.message : `the connection's setting "${problem.setting}" ${problem.message}`)).join("; ");
}

function refuse(name: RunName, error: ErrorEnvelope["error"]): PrepareResult {
  return { ok: false, envelope: errorEnvelope(name, error) };
}

/** Printable ASCII: nothing in it is replaced. */
const PLAIN_NAME = /^[\x20-\x7e]{0,100}$/;

function echo(value: unknown): string {
  if (typeof value !== "string") return "";
  if (PLAIN_NAME.test(value)) return value;
  const printable = value.replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/gu, "\uFFFD");
  return printable.length > MAX_ECHOED_NAME ? `${printable.slice(0, MAX_ECHOED_NAME)}…` : printable;
}
