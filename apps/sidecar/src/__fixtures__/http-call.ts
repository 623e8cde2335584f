// Raw HTTP/1.1 calls over a real socket, with full control of Host and the other headers.
import { request } from "node:http";

export interface HttpAnswer {
  statusCode: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json(): unknown;
}

export interface HttpCall {
  /** A TCP port on 127.0.0.1, or: */
  port?: number;
  /** a Unix socket (then Host defaults to `localhost`). */
  socketPath?: string;
  method?: string;
  path: string;
  headers?: Record<string, string>;
  /** A JSON body (serialised, with Content-Type: application/json unless headers say otherwise) or raw text. */
  body?: unknown;
  /** Sends the body with Transfer-Encoding: chunked, without Content-Length. */
  chunked?: boolean;
}

export function httpCall(call: HttpCall): Promise<HttpAnswer> {
  const text = call.body === undefined ? undefined : typeof call.body === "string" ? call.body : JSON.stringify(call.body);
  const headers: Record<string, string> = { host: call.socketPath === undefined ? `127.0.0.1:${call.port}` : "localhost", ...call.headers };
  const target = call.socketPath === undefined ? { host: "127.0.0.1", port: call.port } : { socketPath: call.socketPath };
  if (text !== undefined && typeof call.body !== "string" && headers["content-type"] === undefined) headers["content-type"] = "application/json";
  if (text !== undefined && call.chunked !== true) headers["content-length"] = String(Buffer.byteLength(text));
  return new Promise((resolve, reject) => {
    const outgoing = request({ ...target, method: call.method ?? "GET", path: call.path, headers, agent: false, setHost: false }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => {
        const body = Buffer.concat(chunks).toString("utf8");
        resolve({ statusCode: response.statusCode ?? 0, headers: response.headers, text: body, json: () => JSON.parse(body) as unknown });
      });
      response.on("error", reject);
    });
    outgoing.on("error", reject);
    if (text !== undefined && call.chunked === true) {
      for (let offset = 0; offset < text.length; offset += 64 * 1024) outgoing.write(text.slice(offset, offset + 64 * 1024));
    } else if (text !== undefined) {
      outgoing.write(text);
    }
    outgoing.end();
  });
}
