// Shipped lists that page by offset or page number, against their providers' documented
// examples (__fixtures__/offset-page-lists.json): a page with more hands out next_page, the
// next request carries the next offset, and a last page (by the provider's total or last flag) ends.
import { readFileSync } from "node:fs";
import { loadRegistry } from "@eleven-integrations/loader";
import { manifestFiles } from "@eleven-integrations/manifests";
import { createLoopbackDispatcher, createTestCertificates } from "@eleven-integrations/test-support";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createExecutor, type Executor } from "./create-executor.js";
import type { OkEnvelope } from "./envelope.js";
import { startTestServer, type TestServer } from "./test-support/test-server.js";

interface Example {
  readonly source: string;
  readonly connection?: Record<string, string>;
  readonly args: Record<string, string>;
  readonly response: unknown;
  readonly next_path: string;
  readonly last_response: unknown;
  readonly last_args: Record<string, string>;
}

const examples = Object.entries(
  JSON.parse(readFileSync(new URL("./__fixtures__/offset-page-lists.json", import.meta.url), "utf8")) as Record<string, unknown>,
).filter((entry): entry is [string, Example] => typeof entry[1] === "object");
const registry = loadRegistry(manifestFiles);
const HOSTS = ["api.box.com", "api.atlassian.com"];

let server: TestServer;
let executor: Executor;
let answer: unknown;
let closeDispatcher: () => Promise<void>;
beforeAll(async () => {
  const certificates = await createTestCertificates(HOSTS);
  server = await startTestServer(certificates, (_request, reply) => reply.header("content-type", "application/json").send(JSON.stringify(answer)));
  const dispatcher = createLoopbackDispatcher(certificates.ca, new Map(HOSTS.map((host) => [host, server.port])));
  closeDispatcher = () => dispatcher.destroy();
  executor = createExecutor({ registry, dispatcher, limits: { retries: 0 } });
});
afterAll(async () => {
  await closeDispatcher();
  await server.close();
});

describe.each(examples)("%s", (name, example) => {
  const [integration, op] = name.split(" ") as [string, string];
  const run = (args: Record<string, string>, page?: string) =>
    executor.run({
      integration,
      op,
      args,
      credential: { token: "documented-example-token" },
      connection: example.connection,
      ...(page === undefined ? {} : { page }),
    });

  it("declares offset or page paging and names its documentation", () => {
    expect(["offset", "page"]).toContain(registry.operation(integration, op)?.paging?.declaration.from);
    expect(example.source).toMatch(/^https:\/\//);
  });

  it("a documented page with more hands out next_page, and the next request asks for the next offset", async () => {
    answer = example.response;
    const first = await run(example.args);
    expect(first.status).toBe("ok");
    const token = (first as OkEnvelope).next_page;
    expect(token).toEqual(expect.any(String));
    server.requests.length = 0;
    await run(example.args, token);
    expect(server.requests.map((request) => request.url)).toEqual([example.next_path]);
  });

  it("the last page (the provider's total or last flag) hands out none", async () => {
    answer = example.last_response;
    const last = await run(example.last_args);
    expect(last.status).toBe("ok");
    expect(last).not.toHaveProperty("next_page");
  });
});
