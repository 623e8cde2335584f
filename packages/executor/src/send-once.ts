import type { EventEmitter } from "node:events";
import type { IncomingHttpHeaders } from "node:http";
import type { Readable } from "node:stream";
import type { Dispatcher } from "undici";
import type { ByteBudget } from "./byte-budget.js";
import type { Deadline } from "./deadline.js";
import { parseBody, parseErrorBody, projectBody } from "./decode-body.js";
import { cursorFromLink } from "./link-cursor.js";
import { checkNextPath } from "./next-path.js";
import type { PageSigner } from "./page-token.js";
import { failureIn2xx, withProviderDetails } from "./provider-failure.js";
import { errorEnvelope, okEnvelope, type Envelope, type EnvelopeError } from "./envelope.js";
import { failure } from "./failure.js";
import { attachFileBytes, fileResult } from "./file-result.js";
import { mapStatus } from "./map-status.js";
import { mapTransportError, mapWriteTransportError } from "./map-transport-error.js";
import type { PreparedRequest } from "./prepare-request.js";
import { readAnnouncedBody, readBody, readsWhole } from "./read-body.js";
import { parseRetryAfter } from "./retry-after.js";

/** Statuses a `GET` read may try again. */
const RETRYABLE_STATUSES = new Set([429, 502, 503, 504]);
/** How much of an error answer is drained so its connection can be reused; past it the connection closes. */
const DRAIN_LIMIT = 64 * 1024;
/** How much of an error answer is read for the provider's words, when the manifest says where they are. */
const ERROR_BODY_LIMIT = 64 * 1024;

export interface AttemptOutcome {
  readonly envelope: Envelope;
  /** Whether a read may try again after this outcome. */
  readonly retryable: boolean;
  /** The server's `Retry-After`, in milliseconds. */
  readonly retryAfterMs?: number;
}

export interface AttemptOptions {
  readonly dispatcher: Dispatcher;
  readonly headers: Record<string, string>;
  readonly deadline: Deadline;
  readonly budget: ByteBudget;
  readonly maxResponseBytes: number;
  readonly pages: PageSigner;
  /** A personal token that travels as a query parameter (`auth.credential` in "query"): added to the path as it is sent, and nowhere else. */
  readonly credentialQuery?: { readonly name: string; readonly token: string } | undefined;
}

/** Sends the request once to the op's origin and turns whatever happens into an outcome. */
export async function sendOnce(request: PreparedRequest, options: AttemptOptions): Promise<AttemptOutcome> {
  const { operation, context, name } = request;
  const { deadline } = options;
  const fail = (error: EnvelopeError, retryable = false): AttemptOutcome => ({ envelope: errorEnvelope(name, error), retryable });
  const transportFailure = (error: unknown): AttemptOutcome => {
    const map = operation.access === "write" ? mapWriteTransportError : mapTransportError;
    const mapped = map(error, deadline.expired, deadline.timeoutMs, context);
    return fail(mapped.error, mapped.retryable);
  };

  let response: Dispatcher.ResponseData;
  try {
    response = await options.dispatcher.request({
      origin: request.origin,
      path: options.credentialQuery === undefined ? request.path : withCredentialQuery(request.path, options.credentialQuery),
      method: operation.method,
      headers: options.headers,
      body: request.body?.body ?? null,
      // undici reads only `aborted`, `reason`, `once` and `removeListener` of an emitter-style signal (lib/core/util.js addAbortListener).
      signal: deadline.signal as unknown as EventEmitter,
      headersTimeout: deadline.remaining(),
      bodyTimeout: deadline.remaining(),
    });
  } catch (error) {
    return transportFailure(error);
  }
  const { statusCode, headers, body } = response;

  if (statusCode < 200 || statusCode >= 300) {
    let error = mapStatus(statusCode, headers, context, Date.now());
    if (statusCode >= 400 && operation.errors?.readsDetails === true) {
      const errorBody = await readErrorBody(body, headers, options);
      error = withProviderDetails(error, operation.errors, headers, errorBody, context, Date.now());
    } else {
      drain(body);
    }
    const outcome = fail(error, RETRYABLE_STATUSES.has(statusCode));
    const retryAfter = parseRetryAfter(headers["retry-after"], Date.now());
    return retryAfter === undefined ? outcome : { ...outcome, retryAfterMs: retryAfter * 1000 };
  }
  const encoding = single(headers["content-encoding"])?.trim().toLowerCase();
  if (encoding !== undefined && encoding !== "" && encoding !== "identity") {
    abandon(body);
    const shown = /^[a-z0-9._-]{1,32}$/.test(encoding) ? encoding : "unknown";
    return fail(
      failure("bad_response", `the answer is compressed (content-encoding: ${shown}), which is never asked for`, context, { http_status: statusCode }),
    );
  }
  const length = contentLength(headers);
  if (length !== undefined && length > options.maxResponseBytes) {
    abandon(body);
    return fail(tooLarge(length, options.maxResponseBytes, request, statusCode));
  }

  const limit = length ?? options.maxResponseBytes;
  const reader = options.budget.open(limit);
  try {
    const read =
      length !== undefined && readsWhole(body)
        ? await readAnnouncedBody(body, length, reader, deadline.signal)
        : await readBody(body, limit, reader, deadline.signal);
    if (!read.ok) return fail(tooLarge(read.bytesRead, options.maxResponseBytes, request, statusCode));
    if (operation.result === "file") {
      // A download: the bytes as they came, never parsed; the envelope says what they are.
      const envelope = okEnvelope(name, statusCode, fileResult(read.bytes, headers, request.path), undefined);
      return { envelope: attachFileBytes(envelope, read.bytes), retryable: false };
    }
    const parsed = parseBody(read.bytes, single(headers["content-type"]), operation.pick !== undefined);
    const badResponse = (message: string) =>
      fail(failure("bad_response", `${context.service} answered ${statusCode}, but ${message}`, context, { http_status: statusCode }));
    if (!parsed.ok) return badResponse(parsed.message);
    const json = parsed.kind === "json" ? parsed.value : undefined;
    if (json !== undefined && operation.errors?.detectsFailure === true && operation.errors.failed(json)) {
      return fail(failureIn2xx(operation.errors, statusCode, headers, json, context, Date.now()));
    }
    let nextPage: string | undefined;
    const paging = operation.paging;
    if (paging !== undefined && request.pageBinding !== undefined) {
      let cursor =
        paging.linkQueryKey !== undefined
          ? cursorFromLink(headers.link, request.origin + request.path, paging.linkQueryKey, paging.linkPaths)
          : json === undefined
            ? undefined
            : paging.cursorFromCount !== undefined
              ? paging.cursorFromCount(json, request.args)
              : paging.cursorFromBody?.(json);
      if (cursor !== undefined && paging.nextPath) {
        // A next path is a URL the provider chose: held to the base before any token carries it.
        const next = checkNextPath(cursor, request.base);
        if (!next.ok) return badResponse(next.message);
        cursor = options.credentialQuery === undefined ? next.path : withoutQueryKey(next.path, options.credentialQuery.name);
      }
      // A page token is readable by whoever holds it: a cursor that still carries the credential is never handed out.
      if (cursor !== undefined && options.credentialQuery !== undefined && cursor.includes(options.credentialQuery.token)) {
        return badResponse("its cursor for the next page carries the credential, which is never handed out");
      }
      if (cursor !== undefined) {
        nextPage = options.pages.issue(request.pageBinding, cursor);
        if (nextPage === undefined) return badResponse("its cursor for the next page is too long to carry");
      }
    }
    const projected = projectBody(parsed, operation.pick);
    if (!projected.ok) return badResponse(projected.message);
    return { envelope: okEnvelope(name, statusCode, projected.data, nextPage), retryable: false };
  } catch (error) {
    return transportFailure(error);
  } finally {
    reader.close();
  }
}

/** The path with the credential's query pair added last. */
function withCredentialQuery(path: string, credential: { readonly name: string; readonly token: string }): string {
  return `${path}${path.includes("?") ? "&" : "?"}${credential.name}=${encodeURIComponent(credential.token)}`;
}

/** A next path without any pair of the credential's query key (a provider may echo it into its links). */
function withoutQueryKey(path: string, key: string): string {
  const start = path.indexOf("?");
  if (start === -1) return path;
  const kept = path
    .slice(start + 1)
    .split("&")
    .filter((pair) => {
      const name = pair.split("=")[0] as string;
      let decoded = name;
      try {
        decoded = decodeURIComponent(name);
      } catch {
        return false;
      }
      return decoded !== key;
    });
  return kept.length === 0 ? path.slice(0, start) : `${path.slice(0, start)}?${kept.join("&")}`;
}

/** An error answer's parsed body (up to 64 KiB, within the deadline and the byte budget), or undefined. */
async function readErrorBody(body: Readable, headers: IncomingHttpHeaders, options: AttemptOptions): Promise<unknown> {
  const length = contentLength(headers);
  const limit = Math.min(ERROR_BODY_LIMIT, options.maxResponseBytes);
  if (length !== undefined && length > limit) {
    drain(body);
    return undefined;
  }
  const reader = options.budget.open(length ?? limit);
  try {
    const read = await readBody(body, limit, reader, options.deadline.signal);
    return read.ok ? parseErrorBody(read.bytes) : undefined;
  } catch {
    return undefined;
  } finally {
    reader.close();
  }
}

function tooLarge(bytes: number, limit: number, request: PreparedRequest, status: number): EnvelopeError {
  return failure("response_too_large", `the answer is over ${limit} bytes (${bytes} seen), the most an operation reads`, request.context, {
    http_status: status,
  });
}

function contentLength(headers: IncomingHttpHeaders): number | undefined {
  const value = single(headers["content-length"]);
  return value !== undefined && /^\d{1,15}$/.test(value) ? Number(value) : undefined;
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** Reads a little of an answer that is not used, so its connection can serve the next request. */
function drain(body: Readable & { dump?: (options: { limit: number }) => Promise<void> }): void {
  if (typeof body.dump === "function") void body.dump({ limit: DRAIN_LIMIT }).catch(() => undefined);
  else abandon(body);
}

/** Stops reading an answer and closes its connection; the abort this causes is expected, not an error. */
function abandon(body: Readable): void {
  body.on("error", () => undefined).destroy();
}
