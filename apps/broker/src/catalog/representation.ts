import { brotliCompress, brotliCompressSync, constants, gzip, gzipSync, type BrotliOptions, type ZlibOptions } from "node:zlib";
import { negotiateEncoding, type ContentEncoding } from "./accept-encoding.js";

/** One encoding of a precompressed body: its bytes and the headers that go with them. */
export interface EncodedBody {
  readonly body: Buffer;
  readonly etag: string;
  /** The headers of a 200. */
  readonly headers: Readonly<Record<string, string>>;
  /** The headers of a 304: the validators and caching ones, no content headers. */
  readonly notModifiedHeaders: Readonly<Record<string, string>>;
}

/** A response body compressed once, when an encoding is first asked for, served in the encoding a client asks for. */
export interface Representation {
  /** The encoding for this `Accept-Encoding`, with its strong ETag. */
  select(acceptEncoding: string | undefined): EncodedBody;
}

const SUFFIX: Record<ContentEncoding, string> = { identity: "", gzip: "-gzip", br: "-br" };

/**
 * `body` served as is, gzip or brotli (each kept only when smaller), with one strong ETag
 * per encoding derived from `tag`, since the bytes differ. Each encoding is compressed the
 * first time a client asks for it, not at start-up: a broker with a thousand manifests
 * would otherwise spend seconds compressing before it is ready. A body up to
 * {@link SYNC_COMPRESS_BYTES} is compressed right then, in the request; a larger one (the
 * whole catalog of a large registry) in zlib's thread pool, and until it is done the
 * request gets the body as is, which the client asked to accept anyway (identity is always
 * acceptable unless refused, RFC 9110 section 12.5.3).
 */
export function createRepresentation(options: {
  body: Buffer;
  contentType: string;
  tag: string;
  cacheControl: string;
  /** Sent with every answer, 200 and 304 alike. */
  headers?: Readonly<Record<string, string>>;
}): Representation {
  const { body, contentType, tag, cacheControl } = options;
  const make = (encoding: ContentEncoding, bytes: Buffer): EncodedBody => {
    const etag = `"${tag}${SUFFIX[encoding]}"`;
    const notModifiedHeaders: Record<string, string> = { ...options.headers, etag, vary: "Accept-Encoding", "cache-control": cacheControl };
    const headers: Record<string, string> = { ...notModifiedHeaders, "content-type": contentType };
    if (encoding !== "identity") headers["content-encoding"] = encoding;
    return Object.freeze({ body: bytes, etag, headers: Object.freeze(headers), notModifiedHeaders: Object.freeze(notModifiedHeaders) });
  };
  const identity = make("identity", body);
  const smaller = (encoding: ContentEncoding, bytes: Buffer): EncodedBody => (bytes.length < body.length ? make(encoding, bytes) : identity);
  const encoded: Partial<Record<ContentEncoding, EncodedBody>> = { identity };
  const pending = new Set<ContentEncoding>();
  const compressed = (encoding: Exclude<ContentEncoding, "identity">): EncodedBody => {
    const done = encoded[encoding];
    if (done !== undefined) return done;
    if (body.length <= SYNC_COMPRESS_BYTES) {
      const bytes = encoding === "gzip" ? gzipSync(body, GZIP) : brotliCompressSync(body, brotliOptions(body.length));
      return (encoded[encoding] = smaller(encoding, bytes));
    }
    if (!pending.has(encoding)) {
      pending.add(encoding);
      const finish = (error: Error | null, bytes: Buffer) => {
        // A failed compression leaves the body served as is.
        encoded[encoding] = error === null ? smaller(encoding, bytes) : identity;
      };
      if (encoding === "gzip") gzip(body, GZIP, finish);
      else brotliCompress(body, brotliOptions(body.length), finish);
    }
    return identity;
  };
  return {
    select: (acceptEncoding) => {
      const encoding = negotiateEncoding(acceptEncoding);
      return encoding === "identity" ? identity : compressed(encoding);
    },
  };
}

/** Bodies up to this size are compressed in the request that first asks (a few milliseconds); larger ones in the background. */
export const SYNC_COMPRESS_BYTES = 1024 * 1024;

const GZIP: ZlibOptions = { level: 9 };

/** Quality 11 (the densest) for what is compressed in a request; 6 for larger bodies, some 30 times faster on JSON for a few percent more bytes. */
function brotliOptions(size: number): BrotliOptions {
  return {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: size <= SYNC_COMPRESS_BYTES ? 11 : 6,
      [constants.BROTLI_PARAM_SIZE_HINT]: size,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
    },
  };
}

/**
 * True when `If-None-Match` names `etag`. RFC 9110 13.1.2 compares weakly here, so
 * `W/"x"` matches `"x"`; `*` matches any current representation.
 */
export function ifNoneMatchHits(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  if (header === etag) return true;
  if (header.trim() === "*") return true;
  for (const candidate of header.split(",")) {
    const trimmed = candidate.trim();
    if ((trimmed.startsWith("W/") ? trimmed.slice(2) : trimmed) === etag) return true;
  }
  return false;
}
