import type { Dispatcher } from "undici";
import { createExecutor, type Executor } from "../create-executor.js";
import type { ExecutorLimits } from "../limits.js";
import { createLoopbackDispatcher, createTestCertificates } from "@eleven-integrations/test-support";
import { BARE_HOST, EVIL_HOST, EXAMPLE_HOST, testRegistry } from "./test-registry.js";
import { startTestServer, type TestHandler, type TestServer } from "./test-server.js";

export interface Harness {
  /** The server the test manifests' hosts are routed to. */
  readonly server: TestServer;
  /** A second server, reached only by the name evil.example; it must never receive anything. */
  readonly evil: TestServer;
  readonly dispatcher: Dispatcher;
  /** An executor over the test registry through the loopback dispatcher. */
  executor(limits?: ExecutorLimits): Executor;
  close(): Promise<void>;
}

const answerOk: TestHandler = (_request, reply) => reply.send({ ok: true });

/** Two loopback TLS servers, a test CA, and executors whose requests reach them by host name. */
export async function startHarness(handler: TestHandler = answerOk): Promise<Harness> {
  const certificates = await createTestCertificates([EXAMPLE_HOST, BARE_HOST, EVIL_HOST]);
  const server = await startTestServer(certificates, handler);
  const evil = await startTestServer(certificates, (_request, reply) => reply.send({ evil: true }));
  const routes = new Map([
    [EXAMPLE_HOST, server.port],
    [BARE_HOST, server.port],
    [EVIL_HOST, evil.port],
  ]);
  const dispatcher = createLoopbackDispatcher(certificates.ca, routes);
  const registry = testRegistry();
  return {
    server,
    evil,
    dispatcher,
    executor: (limits) => createExecutor(limits === undefined ? { registry, dispatcher } : { registry, dispatcher, limits }),
    close: async () => {
      await dispatcher.destroy();
      await Promise.all([server.close(), evil.close()]);
    },
  };
}
