import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface SeenRequest {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
  body: string;
}

export type Handler = (request: SeenRequest, response: ServerResponse) => void;

/**
 * A stand-in for the sidecar's transport, on a real socket: each test says how it
 * answers (the sidecar's own refusals, a silent peer, an endless answer), and it
 * records what the client sent. The real sidecar's answers are checked in apps/sidecar.
 */
export interface StandIn {
  seen: SeenRequest[];
  handle(handler: Handler): void;
  close(): Promise<void>;
}

function serve(server: Server, seen: SeenRequest[], holder: { handler: Handler }) {
  server.on("request", (request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const entry = { method: request.method ?? "", url: request.url ?? "", headers: request.headers, body: Buffer.concat(chunks).toString("utf8") };
      seen.push(entry);
      holder.handler(entry, response);
    });
  });
}

function standIn(server: Server, seen: SeenRequest[], holder: { handler: Handler }): StandIn {
  return {
    seen,
    handle: (handler) => {
      holder.handler = handler;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const noHandler: Handler = (_request, response) => {
  response.writeHead(500).end();
};

export async function startOnSocket(): Promise<StandIn & { socketPath: string }> {
  const socketPath = join(await mkdtemp(join(tmpdir(), "protocol-")), "sidecar.sock");
  const seen: SeenRequest[] = [];
  const holder = { handler: noHandler };
  const server = createServer();
  serve(server, seen, holder);
  await new Promise<void>((resolve) => server.listen(socketPath, resolve));
  return { ...standIn(server, seen, holder), socketPath };
}

export async function startOnLoopback(): Promise<StandIn & { url: string }> {
  const seen: SeenRequest[] = [];
  const holder = { handler: noHandler };
  const server = createServer();
  serve(server, seen, holder);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("no port");
  return { ...standIn(server, seen, holder), url: `http://127.0.0.1:${address.port}` };
}

export function sendJson(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, { "content-type": "application/json; charset=utf-8", "content-length": Buffer.byteLength(text) }).end(text);
}
