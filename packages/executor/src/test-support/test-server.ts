import Fastify, { type FastifyReply, type FastifyRequest } from "fastify";
import type { IncomingHttpHeaders } from "node:http";
import type { TestCertificates } from "@eleven-integrations/test-support";

export interface RecordedRequest {
  readonly method: string;
  /** The request target exactly as it arrived. */
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

export type TestHandler = (request: RecordedRequest, reply: FastifyReply, raw: FastifyRequest) => unknown;

export interface TestServer {
  readonly port: number;
  /** Every request received, in order. */
  readonly requests: RecordedRequest[];
  /** TLS connections accepted. */
  readonly connections: () => number;
  /** Swaps what the server answers. */
  handle(handler: TestHandler): void;
  close(): Promise<void>;
}

/** A fastify server over TLS on 127.0.0.1, recording every request, answering with `handler`. */
export async function startTestServer(certificates: TestCertificates, handler: TestHandler): Promise<TestServer> {
  const app = Fastify({
    https: { key: certificates.key, cert: certificates.cert },
    logger: false,
    forceCloseConnections: true,
    bodyLimit: 64 * 1024 * 1024,
  });
  const requests: RecordedRequest[] = [];
  let current = handler;
  let connections = 0;
  app.server.on("secureConnection", () => {
    connections += 1;
  });
  app.removeAllContentTypeParsers();
  app.addContentTypeParser("*", { parseAs: "buffer" }, (_request, body, done) => done(null, body));
  app.route({
    method: ["GET", "POST", "PUT", "PATCH", "DELETE"],
    url: "/*",
    handler: (request, reply) => {
      const body = Buffer.isBuffer(request.body) ? request.body.toString("utf8") : "";
      const recorded: RecordedRequest = { method: request.method, url: request.raw.url ?? "", headers: request.headers, body };
      requests.push(recorded);
      return current(recorded, reply, request);
    },
  });
  await app.listen({ host: "127.0.0.1", port: 0 });
  const address = app.server.address();
  if (address === null || typeof address === "string") throw new Error("the test server has no port");
  return {
    port: address.port,
    requests,
    connections: () => connections,
    handle: (next) => {
      current = next;
    },
    close: () => app.close(),
  };
}
