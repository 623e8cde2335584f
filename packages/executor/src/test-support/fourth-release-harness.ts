import type { Dispatcher } from "undici";
import { createLoopbackDispatcher, createTestCertificates } from "@eleven-integrations/test-support";
import { createExecutor, type Executor } from "../create-executor.js";
import { EVIL_HOST } from "./test-registry.js";
import { API_HOST, CONTENT_HOST, QUERY_HOST, fourthReleaseRegistry } from "./fourth-release-registry.js";
import { startTestServer, type TestHandler, type TestServer } from "./test-server.js";

export interface FourthReleaseHarness {
  /** The base host (and the query-token manifest's host). */
  readonly server: TestServer;
  /** The further `content` host. */
  readonly content: TestServer;
  /** evil.example: must never receive anything. */
  readonly evil: TestServer;
  readonly dispatcher: Dispatcher;
  readonly executor: Executor;
  /** Requests received anywhere. */
  sent(): number;
  reset(): void;
  close(): Promise<void>;
}

export async function startFourthReleaseHarness(handler: TestHandler): Promise<FourthReleaseHarness> {
  const certificates = await createTestCertificates([API_HOST, CONTENT_HOST, QUERY_HOST, EVIL_HOST]);
  const server = await startTestServer(certificates, handler);
  const content = await startTestServer(certificates, (_request, reply) => reply.send({ content: true }));
  const evil = await startTestServer(certificates, (_request, reply) => reply.send({ evil: true }));
  const dispatcher = createLoopbackDispatcher(
    certificates.ca,
    new Map([
      [API_HOST, server.port],
      [QUERY_HOST, server.port],
      [CONTENT_HOST, content.port],
      [EVIL_HOST, evil.port],
    ]),
  );
  const executor = createExecutor({ registry: fourthReleaseRegistry(), dispatcher });
  return {
    server,
    content,
    evil,
    dispatcher,
    executor,
    sent: () => server.requests.length + content.requests.length + evil.requests.length,
    reset: () => {
      server.requests.length = 0;
      content.requests.length = 0;
      evil.requests.length = 0;
    },
    close: async () => {
      await dispatcher.destroy();
      await Promise.all([server.close(), content.close(), evil.close()]);
    },
  };
}
