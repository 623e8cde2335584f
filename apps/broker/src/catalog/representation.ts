import { brotliCompressSync, constants, gzipSync } from "node:zlib";
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

/** A response body compressed once at start-up, served in the encoding a client asks for. */
export interface Representation {
  /** The encoding for this `Accept-Encoding`, with its strong ETag. */
  select(acceptEncoding: string | undefined): EncodedBody;
}

const SUFFIX: Record<ContentEncoding, string> = { identity: "", gzip: "-gzip", br: "-br" };

/**
 * Precompresses `body` with gzip and brotli (each kept only when smaller) and
 * derives one strong ETag per encoding from `tag`, since the bytes differ.
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
  const gzipped = gzipSync(body, { level: 9 });
  const brotli = brotliCompressSync(body, {
    params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT },
  });
  const encoded: Record<ContentEncoding, EncodedBody> = {
    identity,
    gzip: gzipped.length < body.length ? make("gzip", gzipped) : identity,
    br: brotli.length < body.length ? make("br", brotli) : identity,
  };
  return { select: (acceptEncoding) => encoded[negotiateEncoding(acceptEncoding)] };
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
