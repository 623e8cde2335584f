import type { Registry } from "@eleven-integrations/loader";
import type { FastifyInstance } from "fastify";
import type { Dispatcher } from "undici";
import { buildApp } from "../app.js";
import type { BrokerConfig } from "../config/config.js";
import { CLIENT_ID, CLIENT_SECRET, PUBLIC_URL, RETURN_TO, randomKey, testRegistry } from "./test-registry.js";

export interface TestApp {
  app: FastifyInstance;
  config: BrokerConfig & { registry: Registry };
  /** Every line the app logged, as written. */
  logs: string[];
}

/** The broker over the test registry, an app for `testauth` only, logging everything into `logs`. */
export function testApp(overrides: Partial<BrokerConfig> & { dispatcher?: Dispatcher } = {}): TestApp {
  const logs: string[] = [];
  const config: BrokerConfig = {
    registry: testRegistry(),
    publicUrl: PUBLIC_URL,
    stateKey: randomKey(),
    oauthApps: { testauth: { clientId: CLIENT_ID, clientSecret: CLIENT_SECRET } },
    allowedReturnTo: [RETURN_TO, "com.example.app:/connected"],
    logger: { level: "trace", stream: { write: (line: string) => void logs.push(line) } },
    ...overrides,
  };
  // Tests that pass `registry: undefined` (a release instead) do not read config.registry.
  return { app: buildApp(config), config: config as BrokerConfig & { registry: Registry }, logs };
}
