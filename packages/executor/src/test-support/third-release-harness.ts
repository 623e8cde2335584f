import type { Dispatcher } from "undici";
import { createLoopbackDispatcher, createTestCertificates } from "@eleven-integrations/test-support";
import { createExecutor, type Executor } from "../create-executor.js";
import { EVIL_HOST } from "./test-registry.js";
import { ACME_HOST, FEATURES_HOST, OTHER_TENANT_HOST, thirdReleaseRegistry } from "./third-release-registry.js";
import { startTestServer, type TestHandler, type TestServer } from "./test-server.js";

export interface ThirdReleaseHarness {
  /** Answers for acme's tenant host and the features host. */
  readonly server: TestServer;
  /** Another tenant's host: reached only if a run leaves the member's own tenant. */
  readonly other: TestServer;
  /** evil.example: must never receive anything. */
  readonly evil: TestServer;
  readonly dispatcher: Dispatcher;
  readonly executor: Executor;
  /** Requests received anywhere. */
  sent(): number;
  reset(): void;
  close(): Promise<void>;
}

export async function startThirdReleaseHarness(handler: TestHandler): Promise<ThirdReleaseHarness> {
  const certificates = await createTestCertificates([ACME_HOST, OTHER_TENANT_HOST, FEATURES_HOST, EVIL_HOST]);
  const server = await startTestServer(certificates, handler);
  const other = await startTestServer(certificates, (_request, reply) => reply.send({ other: true }));
  const evil = await startTestServer(certificates, (_request, reply) => reply.send({ evil: true }));
  const dispatcher = createLoopbackDispatcher(
    certificates.ca,
    new Map([
      [ACME_HOST, server.port],
      [FEATURES_HOST, server.port],
      [OTHER_TENANT_HOST, other.port],
      [EVIL_HOST, evil.port],
    ]),
  );
  const executor = createExecutor({ registry: thirdReleaseRegistry(), dispatcher });
  return {
    server,
    other,
    evil,
    dispatcher,
    executor,
    sent: () => server.requests.length + other.requests.length + evil.requests.length,
    reset: () => {
      server.requests.length = 0;
      other.requests.length = 0;
      evil.requests.length = 0;
    },
    close: async () => {
      await dispatcher.destroy();
      await Promise.all([server.close(), other.close(), evil.close()]);
    },
  };
}
