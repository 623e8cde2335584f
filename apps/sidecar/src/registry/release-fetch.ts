import { request, type Dispatcher } from "undici";
import { SyncRefusal } from "./sync-refusal.js";

export type FetchedRelease = { kind: "not_modified" } | { kind: "document"; bytes: Buffer; etag: string | undefined };

export interface FetchReleaseOptions {
  dispatcher: Dispatcher;
  /** The ETag of the release running now: a 304 then means nothing changed. */
  etag: string | undefined;
  /** Longer bodies are refused (`too_large`): by `content-length` before reading, else as soon as they pass it. */
  maxBytes: number;
  /** Deadline of the whole fetch, body included. */
  timeoutMs: number;
}

/**
 * `GET <url>` with `If-None-Match`, through `dispatcher`. Never follows a
 * redirect (a 3xx is refused: the release must come from the URL configured),
 * never asks for compression, and reads at most `maxBytes`. Throws `SyncRefusal`.
 */
export async function fetchRelease(url: string, options: FetchReleaseOptions): Promise<FetchedRelease> {
  const signal = AbortSignal.timeout(options.timeoutMs);
  let response: Dispatcher.ResponseData;
  try {
    response = await request(url, {
      method: "GET",
      dispatcher: options.dispatcher,
      headers: { accept: "application/json", ...(options.etag === undefined ? {} : { "if-none-match": options.etag }) },
      signal,
    });
  } catch (error) {
    throw new SyncRefusal("unreachable", `cannot reach ${url}: ${describe(error)}`);
  }
  const { statusCode, headers, body } = response;
  if (statusCode === 304) {
    body.resume();
    return { kind: "not_modified" };
  }
  if (statusCode >= 300 && statusCode < 400) {
    body.resume();
    throw new SyncRefusal("redirect", `${url} answered ${statusCode} (a redirect); releases are fetched only from the configured URL`);
  }
  if (statusCode !== 200) {
    body.resume();
    throw new SyncRefusal("http_status", `${url} answered HTTP ${statusCode}`);
  }
  if (headers["content-encoding"] !== undefined && headers["content-encoding"] !== "identity") {
    body.destroy();
    throw new SyncRefusal("malformed", `${url} sent the release with content-encoding ${String(headers["content-encoding"])}`);
  }
  const declared = Number(headers["content-length"]);
  if (Number.isFinite(declared) && declared > options.maxBytes) {
    body.destroy();
    throw new SyncRefusal("too_large", `the release is ${declared} bytes (content-length), over the limit of ${options.maxBytes}`);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of body) {
      size += (chunk as Buffer).length;
      if (size > options.maxBytes) {
        body.destroy();
        throw new SyncRefusal("too_large", `the release is over the limit of ${options.maxBytes} bytes`);
      }
      chunks.push(chunk as Buffer);
    }
  } catch (error) {
    if (SyncRefusal.isInstance(error)) throw error;
    throw new SyncRefusal("unreachable", `the release body from ${url} did not arrive whole: ${describe(error)}`);
  }
  const etag = headers.etag;
  return { kind: "document", bytes: Buffer.concat(chunks, size), etag: typeof etag === "string" ? etag : undefined };
}

function describe(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  if (typeof code === "string") return code;
  return error instanceof Error ? error.name : "error";
}
