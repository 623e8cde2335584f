import { request, type Dispatcher } from "undici";

/** What oauth4webapi hands its `customFetch`. */
export interface OutboundInit {
  body?: ArrayBuffer | null | ReadableStream | string | Uint8Array | URLSearchParams | undefined;
  headers: Record<string, string>;
  method: string;
  redirect: "manual";
  signal?: AbortSignal | undefined;
}

export type OutboundFetch = (url: string, init: OutboundInit) => Promise<Response>;

/** A token endpoint answers a few KiB; more is refused rather than buffered. */
export const MAX_OUTBOUND_RESPONSE_BYTES = 256 * 1024;
const NULL_BODY_STATUS = new Set([101, 103, 204, 205, 304]);

/**
 * The `fetch` oauth4webapi uses, on undici's `request()` through `dispatcher`:
 * no redirect followed, nothing decompressed, the body capped, the whole call
 * bounded by `timeoutMs`. It returns a WHATWG `Response` built from the bytes read.
 */
export function createOutboundFetch(options: { dispatcher: Dispatcher; timeoutMs: number; maxResponseBytes?: number }): OutboundFetch {
  const maxBytes = options.maxResponseBytes ?? MAX_OUTBOUND_RESPONSE_BYTES;
  return async (url, init) => {
    const signals = [AbortSignal.timeout(options.timeoutMs)];
    if (init.signal !== undefined) signals.push(init.signal);
    const response = await request(url, {
      method: init.method as Dispatcher.HttpMethod,
      headers: init.headers,
      body: await requestBody(init.body),
      dispatcher: options.dispatcher,
      signal: AbortSignal.any(signals),
    });
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of response.body) {
      const bytes = chunk as Buffer;
      size += bytes.length;
      if (size > maxBytes) {
        response.body.destroy();
        throw new Error(`the response is larger than ${maxBytes} bytes`);
      }
      chunks.push(bytes);
    }
    const headers = new Headers();
    for (const [name, value] of Object.entries(response.headers)) {
      if (Array.isArray(value)) for (const item of value) headers.append(name, item);
      else if (value !== undefined) headers.append(name, value);
    }
    const body = NULL_BODY_STATUS.has(response.statusCode) ? null : Buffer.concat(chunks);
    return new Response(body, { status: response.statusCode, headers });
  };
}

async function requestBody(body: OutboundInit["body"]): Promise<string | Uint8Array | null> {
  if (body === undefined || body === null) return null;
  if (typeof body === "string") return body;
  if (body instanceof URLSearchParams) return body.toString();
  if (body instanceof Uint8Array) return body;
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  return new Uint8Array(await new Response(body).arrayBuffer());
}
