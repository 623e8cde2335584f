import type { Dispatcher } from "undici";
import { createLoopbackDispatcher, createTestCertificates } from "@eleven-integrations/test-support";
import { createExecutor, type Executor, type ExecutorOptions } from "../create-executor.js";
import { OTHER_HOST, PROVIDER_HOST, providerRegistry } from "./provider-registry.js";
import { startTestServer, type TestHandler, type TestServer } from "./test-server.js";

export interface ProviderHarness {
  /** The provider: every test manifest's host is routed here. */
  readonly server: TestServer;
  /** A second server, reached by another name; it must never receive anything. */
  readonly other: TestServer;
  readonly dispatcher: Dispatcher;
  executor(options?: Omit<ExecutorOptions, "registry" | "dispatcher">): Executor;
  close(): Promise<void>;
}

/** Loopback TLS servers for the provider-truth manifests, the certificate checked for their real names. */
export async function startProviderHarness(handler: TestHandler = (_request, reply) => reply.send({ ok: true })): Promise<ProviderHarness> {
  const certificates = await createTestCertificates([PROVIDER_HOST, OTHER_HOST]);
  const server = await startTestServer(certificates, handler);
  const other = await startTestServer(certificates, (_request, reply) => reply.send({ other: true }));
  const dispatcher = createLoopbackDispatcher(
    certificates.ca,
    new Map([
      [PROVIDER_HOST, server.port],
      [OTHER_HOST, other.port],
    ]),
  );
  const registry = providerRegistry();
  return {
    server,
    other,
    dispatcher,
    executor: (options = {}) => createExecutor({ ...options, registry, dispatcher, limits: { retries: 0, ...options.limits } }),
    close: async () => {
      await dispatcher.destroy();
      await Promise.all([server.close(), other.close()]);
    },
  };
}
